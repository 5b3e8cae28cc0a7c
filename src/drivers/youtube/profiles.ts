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

/** The default profiles (versions in use in mid/late 2026). */
export const DEFAULT_PROFILES: Readonly<Record<string, ClientProfile>> = Object.freeze({
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
  ANDROID: {
    name: 'ANDROID',
    id: 3,
    version: '21.26.364',
    userAgent: 'com.google.android.youtube/21.26.364 (Linux; U; Android 11) gzip',
    host: 'youtubei',
    playerEndpoint: 'reel',
    web: false,
    context: {
      clientScreen: 'WATCH',
      platform: 'MOBILE',
      osName: 'Android',
      osVersion: '11',
      androidSdkVersion: 30,
    },
  },
  WEB: {
    name: 'WEB',
    id: 1,
    version: '2.20260722.01.00',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
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
