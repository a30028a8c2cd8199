import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http-error.ts';
import { adminRefusal, lookupCommand, unwhitelistCommand, whitelistCommand } from './admin-commands.ts';
import { keyCommand, redeemCommand, resetHwidCommand } from './buyer-commands.ts';
import type { CommandCall } from './command-call.ts';
import { DISCORD_TEXTS, ephemeral, publicMessage } from './discord-answers.ts';
import { countFleetStatus } from './fleet-status.store.ts';
import { CALLBACK_TYPE, EPHEMERAL, type InteractionMessage } from './interaction.schema.ts';

/**
 * Discord waits 3 s for the first answer. A command not done in this long is answered "thinking…"
 * (type 5) and its result sent as the follow-up: the margin covers the network both ways.
 */
export const DEFER_AFTER_MS = 2000;

type Handler = (ctx: AppContext, call: CommandCall) => Promise<InteractionMessage>;

interface Command {
  run: Handler;
  admin: boolean;
  /** Whether everyone in the channel sees the answer (and so the "thinking…" of a deferral). */
  visible?: boolean;
}

async function statusCommand(ctx: AppContext): Promise<InteractionMessage> {
  const { online, findsLastHour } = await countFleetStatus(ctx.db, ctx.now());
  return publicMessage(
    `Fleet: ${online} bot${online === 1 ? '' : 's'} online · ${findsLastHour} find${findsLastHour === 1 ? '' : 's'} in the last hour`,
  );
}

const COMMANDS: Record<string, Command> = {
  redeem: { run: redeemCommand, admin: false },
  key: { run: keyCommand, admin: false },
  resethwid: { run: resetHwidCommand, admin: false },
  status: { run: statusCommand, admin: false, visible: true },
  whitelist: { run: whitelistCommand, admin: true },
  unwhitelist: { run: unwhitelistCommand, admin: true },
  lookup: { run: lookupCommand, admin: true },
};

/** What the route sends back to Discord. */
export type InteractionAnswer =
  | { type: typeof CALLBACK_TYPE.message; data: InteractionMessage }
  | { type: typeof CALLBACK_TYPE.deferredMessage; data: { flags?: number } };

/**
 * Runs slash commands. Every outcome is a message: a refusal the services throw (HttpError) is shown
 * ephemerally as its text; anything else is logged and answered with a plain "went wrong", so Discord
 * never shows "The application did not respond".
 */
export class InteractionDesk {
  /** Tests set 0 to defer every command. */
  deferAfterMs = DEFER_AFTER_MS;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  private async run(name: string, call: CommandCall): Promise<InteractionMessage> {
    const command = COMMANDS[name];
    if (!command) return ephemeral(DISCORD_TEXTS.unknownCommand(name));
    if (command.admin) {
      const refused = adminRefusal(call);
      if (refused) return refused;
    }
    try {
      return await command.run(this.ctx, call);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) return ephemeral(error.message);
      this.log.error({ err: error, command: name }, 'discord: a command failed');
      return ephemeral(DISCORD_TEXTS.failed);
    }
  }

  /**
   * The first answer: the command's message when it is done within deferAfterMs, else a deferral
   * (ephemeral unless the command answers for everyone) whose result goes out as the follow-up.
   */
  async answer(name: string, call: CommandCall): Promise<InteractionAnswer> {
    const result = this.run(name, call);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.deferAfterMs);
    });
    const first = this.deferAfterMs <= 0 ? 'late' : await Promise.race([result, late]);
    clearTimeout(timer);
    if (first !== 'late') return { type: CALLBACK_TYPE.message, data: first };
    void this.followUp(result, call);
    const visible = COMMANDS[name]?.visible === true;
    return { type: CALLBACK_TYPE.deferredMessage, data: visible ? {} : { flags: EPHEMERAL } };
  }

  private async followUp(result: Promise<InteractionMessage>, call: CommandCall): Promise<void> {
    const message = await result;
    const { application_id: applicationId, token } = call.interaction;
    try {
      // Through the shared client: Discord's rate limits and the invalid-request budget apply.
      await this.ctx.services.discordRoles.rest.followUp(applicationId, token, message);
    } catch (error) {
      this.log.warn({ err: error }, 'discord: the follow-up of a deferred command was not delivered');
    }
  }
}
