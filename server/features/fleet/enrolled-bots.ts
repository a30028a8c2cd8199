import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { listLiveCredentialIds } from './bot-credential.store.ts';

/** Bus channel carrying credential changes between instances. */
export const BOT_CREDENTIALS_CHANNEL = 'bot-credentials';

/**
 * A change to a bot's credential: it enrolled (again: `keyId` names its new credential, so sockets
 * opened with another one close), or the administrator revoked it.
 */
export type CredentialChange =
  | { kind: 'enrolled'; ghostId: string; keyId: string }
  | { kind: 'revoked'; ghostId: string };

/** The public name of a credential: the start of its hash (the hash of 256 random bits reveals nothing). */
export const keyIdOf = (tokenHash: string) => tokenHash.slice(0, 16);

/** How often each instance reads the enrolled ids again, whatever the bus said. */
export const ENROLLED_REFRESH_MS = 30_000;

function changeOf(message: unknown): CredentialChange | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as Record<string, unknown>;
  if (typeof m.ghostId !== 'string') return null;
  if (m.kind === 'revoked') return { kind: 'revoked', ghostId: m.ghostId };
  if (m.kind === 'enrolled' && typeof m.keyId === 'string')
    return { kind: 'enrolled', ghostId: m.ghostId, keyId: m.keyId };
  return null;
}

/**
 * The ids holding a live credential, on this instance, for the fleet's places (FLEET_MAX_BOTS: an
 * enrolled bot always has its place). Never for access: every credential is checked in the database.
 * Kept current by the change that is made here (applied first), the bus (the other instances'), a
 * credential checked in the database (`confirm`), and a re-read every ENROLLED_REFRESH_MS, so a
 * missed bus message costs a place count for at most that long.
 */
export class EnrolledBots {
  private ids = new Set<string>();
  private readonly listeners = new Set<(change: CredentialChange) => void>();
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    const unsubscribes = [
      this.ctx.bus.subscribe(BOT_CREDENTIALS_CHANNEL, (message) => this.apply(message)),
      // Back from a Redis outage: changes may have been missed.
      this.ctx.bus.onResync(() => void this.reloadQuietly()),
    ];
    this.unsubscribe = () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
    this.timer = setInterval(() => void this.reloadQuietly(), ENROLLED_REFRESH_MS).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  has(ghostId: string): boolean {
    return this.ids.has(ghostId);
  }

  get size(): number {
    return this.ids.size;
  }

  /** A credential of `ghostId` was just found live in the database. */
  confirm(ghostId: string): void {
    this.ids.add(ghostId);
  }

  /**
   * A change made on this instance: the bus applies it here at once, then tells the others. With
   * Redis away they miss it until the bus resyncs (their sockets also close at the next liveness
   * sweep, when the credential is checked again in the database).
   */
  async announce(change: CredentialChange): Promise<void> {
    await this.ctx.bus.publish(BOT_CREDENTIALS_CHANNEL, change);
  }

  /** Runs `listener` for every credential change applied on this instance. Returns unsubscribe. */
  onChange(listener: (change: CredentialChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(message: unknown): void {
    const change = changeOf(message);
    if (!change) return;
    if (change.kind === 'enrolled') this.ids.add(change.ghostId);
    else this.ids.delete(change.ghostId);
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.log.error({ err }, 'a credential change listener failed');
      }
    }
  }

  private reloadQuietly(): Promise<void> {
    return this.reload().catch((err: unknown) =>
      this.log.warn({ err }, 'could not re-read the enrolled bots'),
    );
  }

  private async reload(): Promise<void> {
    this.ids = new Set(await listLiveCredentialIds(this.ctx.db));
  }
}

declare module '../../context.ts' {
  interface AppServices {
    /** The ids holding a live bot credential (for the fleet's places; access reads the database). */
    enrolledBots: EnrolledBots;
  }
}
