/**
 * InnerTube client profiles as data: a version bump is configuration, not code
 * (youtube-protocol.md §1, §8). Override per client through options or, from the command line,
 * `TUBESCRIBE_YOUTUBE_CLIENTS` (JSON) or `TUBESCRIBE_YOUTUBE_<NAME>_VERSION`.
 * @module
 */

/** Which host a client talks to. */
export type YouTubeHost = 'www' | 'youtubei' | 'suggest';

/** One InnerTube client. */
export interface ClientProfile {
  /** `clientName` in the request context (`ANDROID`, `VISIONOS`, `WEB`). */
  name: string;
  /** The numeric client id (`X-YouTube-Client-Name`). */
  id: number;
  version: string;
  userAgent?: string;
  host: YouTubeHost;
  /** Player endpoint: `player`, or ANDROID's `reel` (reel/reel_item_watch, NewPipe 2026). */
  playerEndpoint: 'player' | 'reel';
  /** Browser-like headers (Origin, Referer, consent cookie, X-YouTube-Client-*). */
  web: boolean;
  /** Extra fields of `context.client` (platform, OS, device). */
  context: Record<string, string | number>;
}

/**
 * The default profiles. Each is copied from one public upstream (named with its commit) and
 * checked against the NewPipe recordings in `youtube-recordings/newpipe/` (CONTRIBUTING.md,
 * "Updating the client profiles"). Newer identities reported but not in a stored upstream copy
 * (NewPipe dev: VISIONOS 1.04, RealityDevice17,1, visionOS 26.6.0.23O770) are an override away.
 */
export const DEFAULT_PROFILES: Readonly<Record<string, ClientProfile>> = Object.freeze({
  // TeamNewPipe/NewPipeExtractor v0.26.4 (43f8e6e, 2026-07-20); values last changed in 82b7e41
  // (2026-06-07): ClientsConstants.java (VISIONOS_*), InnertubeClientRequestInfo.ofVisionOsClient,
  // YoutubeParsingHelper.getVisionOsUserAgent (country of Localization.DEFAULT, en-GB).
  // Matches the recorded requests of 2026-06-07 (stream/…/generated_mock_3.json) field by field.
  VISIONOS: {
    name: 'VISIONOS',
    id: 101,
    version: '1.02',
    userAgent:
      'com.google.visionos.youtube/1.02(RealityDevice14,1; U; CPU visionOS 25_6_0 like Mac OS X; GB)',
    host: 'youtubei',
    playerEndpoint: 'player',
    web: false,
    context: {
      clientScreen: 'WATCH',
      platform: 'MOBILE',
      deviceMake: 'Apple',
      deviceModel: 'RealityDevice14,1',
      osName: 'visionOS',
      osVersion: '25.6.0.23O471',
    },
  },
  // TeamNewPipe/NewPipeExtractor v0.26.4 (43f8e6e, 2026-07-20); values last changed in 82b7e41
  // (2026-06-07): ClientsConstants.ANDROID_CLIENT_VERSION, InnertubeClientRequestInfo
  // .ofAndroidClient (context: Android 16, SDK 36), YoutubeParsingHelper.getAndroidUserAgent (UA:
  // Android 15, country of Localization.DEFAULT). NewPipe's client for reel/reel_item_watch with
  // its own visitor_id bootstrap; matches the recorded requests (stream/…/generated_mock_1.json).
  ANDROID: {
    name: 'ANDROID',
    id: 3,
    version: '21.03.36',
    userAgent: 'com.google.android.youtube/21.03.36 (Linux; U; Android 15; GB) gzip',
    host: 'youtubei',
    playerEndpoint: 'reel',
    web: false,
    context: {
      clientScreen: 'WATCH',
      platform: 'MOBILE',
      osName: 'Android',
      osVersion: '16',
      androidSdkVersion: 36,
    },
  },
  // iv-org/invidious eff609d (2026-08-21): src/invidious/yt_backend/youtube_api.cr
  // HARDCODED_CLIENTS[Web] (40378a2, 2026-08-01) and connection_pool.cr add_yt_headers (1a3cb60,
  // 2026-08-03). Invidious also sends clientScreen WATCH_FULL_SCREEN, osName Windows and
  // osVersion 10.0; they are left out because the WEB request shape follows NewPipe's recorded WEB
  // requests (test/youtube/driver-browse.test.ts checks the context keys against them).
  WEB: {
    name: 'WEB',
    id: 1,
    version: '2.20260722.01.00',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0 Safari/537.36',
    host: 'www',
    playerEndpoint: 'player',
    web: true,
    context: { platform: 'DESKTOP' },
  },
});

/** The player fallback chain (decisions: VISIONOS → ANDROID → WEB). */
export const DEFAULT_PLAYER_CHAIN: readonly string[] = ['VISIONOS', 'ANDROID', 'WEB'];

/** Partial overrides of profiles by name (a new name adds a client). */
export type ProfileOverrides = Readonly<Record<string, Partial<ClientProfile>>>;

/** The default profiles with `overrides` applied. Unknown new clients must give name-independent fields. */
export function resolveProfiles(overrides: ProfileOverrides = {}): Record<string, ClientProfile> {
  const out: Record<string, ClientProfile> = {};
  for (const [name, profile] of Object.entries(DEFAULT_PROFILES))
    out[name] = { ...profile, context: { ...profile.context } };
  for (const [rawName, patch] of Object.entries(overrides)) {
    const name = rawName.toUpperCase();
    const base = out[name];
    if (!base) {
      if (patch.id === undefined || patch.version === undefined) {
        throw new Error(`A new YouTube client "${name}" needs at least id and version.`);
      }
      out[name] = {
        name,
        id: patch.id,
        version: patch.version,
        host: patch.host ?? 'www',
        playerEndpoint: patch.playerEndpoint ?? 'player',
        web: patch.web ?? true,
        context: { ...patch.context },
        ...(patch.userAgent ? { userAgent: patch.userAgent } : {}),
      };
      continue;
    }
    const merged: ClientProfile = { ...base, ...patch, name, context: { ...base.context, ...patch.context } };
    // A version bump alone also bumps the version inside the default user agent.
    if (patch.version && !patch.userAgent && base.userAgent?.includes(base.version)) {
      merged.userAgent = base.userAgent.replace(base.version, patch.version);
    }
    out[name] = merged;
  }
  return out;
}

/**
 * Profile overrides from environment variables: `TUBESCRIBE_YOUTUBE_CLIENTS` (a JSON object of
 * overrides by client name) and `TUBESCRIBE_YOUTUBE_<NAME>_VERSION` (a version bump).
 */
export function profilesFromEnv(env: Readonly<Record<string, string | undefined>>): ProfileOverrides {
  const out: Record<string, Partial<ClientProfile>> = {};
  const json = env.TUBESCRIBE_YOUTUBE_CLIENTS;
  if (json) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw new Error('TUBESCRIBE_YOUTUBE_CLIENTS must be a JSON object of client overrides.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('TUBESCRIBE_YOUTUBE_CLIENTS must be a JSON object of client overrides.');
    }
    for (const [name, patch] of Object.entries(parsed))
      out[name.toUpperCase()] = patch as Partial<ClientProfile>;
  }
  for (const [key, value] of Object.entries(env)) {
    const m = /^TUBESCRIBE_YOUTUBE_([A-Z0-9_]+)_VERSION$/.exec(key);
    if (m && value) out[m[1]!] = { ...out[m[1]!], version: value };
  }
  return out;
}
