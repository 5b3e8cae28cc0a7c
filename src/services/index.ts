/**
 * The services an app is made of: one object per use case, shared by every way in (REST routes,
 * and later MCP tools and batch workers). Built once by the composition root (`src/app.ts`).
 * @module
 */
import type { Accounts } from './accounts.ts';
import type { AuthGuard } from './auth-guard.ts';
import type { BatchJobs } from './batch-jobs.ts';
import type { Batches } from './batches.ts';
import type { Billing } from './billing.ts';
import type { Channels } from './channels.ts';
import type { Comments } from './comments.ts';
import type { Dashboard } from './dashboard.ts';
import type { EmailSignin } from './email-signin.ts';
import type { Metrics } from './metrics.ts';
import type { Pager } from './paging.ts';
import type { Playlists } from './playlists.ts';
import type { Readiness } from './readiness.ts';
import type { Search } from './search.ts';
import type { Sessions } from './sessions.ts';
import type { Signups } from './signup.ts';
import type { Transcripts } from './transcripts.ts';
import type { UpstreamStatus } from './upstream-health.ts';
import type { Usage } from './usage.ts';
import type { Videos } from './videos.ts';

/** Every service of an app. */
export interface Services {
  accounts: Accounts;
  auth: AuthGuard;
  billing: Billing;
  batches: Batches;
  batchJobs: BatchJobs;
  transcripts: Transcripts;
  videos: Videos;
  comments: Comments;
  playlists: Playlists;
  channels: Channels;
  search: Search;
  signups: Signups;
  /** Signed opaque cursors (listings; the MCP transcript pages). */
  pager: Pager;
  /** The upstream's health for the operator (`GET /admin/upstream`). */
  upstream: UpstreamStatus;
  /** Whether storage, ledger and secret answer (`GET /readyz`). */
  readiness: Readiness;
  /** Usage per UTC day (`GET /v1/usage`, the dashboard's charts). */
  usage: Usage;
  /** What `GET /metrics` shows; every service that records something holds it too. */
  metrics: Metrics;
  /** The dashboard: its sessions, email-code sign-in, and account and operator views. */
  dashboard: { sessions: Sessions; signin: EmailSignin; data: Dashboard };
}
