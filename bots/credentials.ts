import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/*
 * Where simulated bots keep the botToken each got from POST /api/bot/enroll. The server keeps only
 * its hash, and enrolling an enrolled id again needs its current botToken: a simulator started again
 * finds its bots' credentials here (per server URL) and renews them, rather than being refused.
 */

export interface BotCredentials {
  get(ghostId: string): string | undefined;
  set(ghostId: string, botToken: string): void;
}

/** Credentials in `tokens` (by default, a store of its own). */
export function memoryCredentials(tokens = new Map<string, string>()): BotCredentials {
  return { get: (ghostId) => tokens.get(ghostId), set: (ghostId, token) => void tokens.set(ghostId, token) };
}

/** Per server URL, what this process's simulators were given. */
const remembered = new Map<string, Map<string, string>>();

/**
 * Credentials kept for the life of the process, per server URL: what a Simulator uses unless told
 * otherwise, so a second Simulator against the same server (after a restart, say) renews its bots'
 * credentials rather than being refused. A token from an older database is refused and replaced.
 */
export function processCredentials(serverUrl: string): BotCredentials {
  let tokens = remembered.get(serverUrl);
  if (!tokens) {
    tokens = new Map();
    remembered.set(serverUrl, tokens);
  }
  return memoryCredentials(tokens);
}

type CredentialsFile = Record<string, Record<string, string>>;

function readCredentials(path: string): CredentialsFile {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as CredentialsFile) : {};
  } catch {
    // None yet, or unreadable: the bots enroll with the shared token again.
    return {};
  }
}

/**
 * Credentials kept in `path` (JSON, mode 0600: they are secrets) under `serverUrl`, so one file
 * serves simulators pointed at several servers.
 */
export function fileCredentials(path: string, serverUrl: string): BotCredentials {
  const all = readCredentials(path);
  const mine: Record<string, string> = Object.hasOwn(all, serverUrl) ? (all[serverUrl] ?? {}) : {};
  all[serverUrl] = mine;
  return {
    get: (ghostId) => (Object.hasOwn(mine, ghostId) ? mine[ghostId] : undefined),
    set(ghostId, token) {
      mine[ghostId] = token;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      // writeFileSync's mode applies only when it creates the file.
      chmodSync(path, 0o600);
    },
  };
}
