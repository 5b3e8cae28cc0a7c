/**
 * What the HTTP layer gets from the composition root: the services and the settings it needs.
 * @module
 */
import type { Deps } from '../options.ts';
import type { Accounts } from '../services/accounts.ts';
import type { Batches } from '../services/batches.ts';
import type { Billing } from '../services/billing.ts';
import type { Channels } from '../services/channels.ts';
import type { Playlists } from '../services/playlists.ts';
import type { Search } from '../services/search.ts';
import type { Signups } from '../services/signup.ts';
import type { Transcripts } from '../services/transcripts.ts';
import type { Videos } from '../services/videos.ts';

/** The services every route module may call. */
export interface Services {
  accounts: Accounts;
  billing: Billing;
  batches: Batches;
  transcripts: Transcripts;
  videos: Videos;
  playlists: Playlists;
  channels: Channels;
  search: Search;
  signups: Signups;
}

/** Services plus resolved settings. */
export interface Runtime {
  services: Services;
  deps: Deps;
}
