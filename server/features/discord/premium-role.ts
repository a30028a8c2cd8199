import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerGuildCommands } from './command-registration.ts';
import { DISCORD_COMMANDS } from './commands.ts';
import { listPremiumHolders } from './discord-links.store.ts';
import { createDiscordRest, type DiscordRest } from './discord-rest.ts';
import { getDiscordSettings } from './discord-settings.ts';
import { createRoleSync, ROLE_SYNC_INTERVAL_MS, type RoleSync } from './role-sync.ts';

/**
 * The Discord side that runs beside the requests: the slash commands registered with the guild (on
 * start when they or the settings changed, at once when the settings are saved), and the premium role
 * following the buyers' keys (given when a premium key is linked, swept by one instance at a time).
 */
export class DiscordRoles {
  readonly rest: DiscordRest;
  readonly sync: RoleSync;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {
    const settings = () => getDiscordSettings(ctx);
    this.rest = createDiscordRest({ settings });
    this.sync = createRoleSync({
      db: ctx.db,
      rest: this.rest,
      settings,
      holders: (now) => listPremiumHolders(ctx.db, now),
      now: ctx.now,
      log,
    });
  }

  start(): void {
    const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.sync.start({ intervalMs: ROLE_SYNC_INTERVAL_MS, instanceId });
    void this.registerCommands(false);
  }

  stop(): Promise<void> {
    return this.sync.stop();
  }

  /** A key was linked to the user: the role now when it is a running premium key (else the sweep decides). */
  linked(discordUserId: string): void {
    const grant = async () => {
      const [holder] = await listPremiumHolders(this.ctx.db, this.ctx.now(), discordUserId);
      if (holder !== undefined) await this.sync.grantNow(holder);
    };
    grant().catch((err: unknown) =>
      this.log.warn({ err }, 'could not give the premium role now; the sweep retries'),
    );
  }

  /** The settings were saved: the commands are written to the guild again. */
  settingsChanged(): void {
    void this.registerCommands(true);
  }

  private async registerCommands(force: boolean): Promise<void> {
    try {
      const settings = await getDiscordSettings(this.ctx);
      const deps = { db: this.ctx.db, rest: this.rest, now: this.ctx.now };
      await registerGuildCommands(deps, settings, [...DISCORD_COMMANDS], { force });
    } catch (err) {
      this.log.warn({ err }, 'could not register the Discord commands');
    }
  }
}
