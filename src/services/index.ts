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
import type { Pager } from './paging.ts';
import type { Playlists } from './playlists.ts';
import type { Search } from './search.ts';
import type { Signups } from './signup.ts';
import type { Transcripts } from './transcripts.ts';
import type { UpstreamStatus } from './upstream-health.ts';
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
}
