import { z } from 'zod';
import type { ServerMessagePayloads, ServerMessageType } from '../../common/realtime.ts';
import { sha256 } from '../features/auth/secret.ts';
import type { Bus } from './bus.ts';
import { botChannel, PROTOCOLS } from './handlers.ts';

type PayloadFor<T extends string> = T extends ServerMessageType ? ServerMessagePayloads[T] : unknown;

/**
 * Sends a message to every admin dashboard, on every server instance. Features call this (not the
 * sockets) so fan-out, coalescing and framing stay in one place.
 *
 *     await publishToAdmins(ctx.bus, 'system_config_update', { message: 'Slots set to 40' });
 */
export function publishToAdmins<T extends string>(bus: Bus, type: T, payload: PayloadFor<T>): Promise<void> {
  return bus.publish(PROTOCOLS.admin.channel, { type, payload });
}

/** Sends a message to every connected bot, on every server instance (config pushes, emergency stop). */
export function publishToBots(bus: Bus, type: string, payload: unknown): Promise<void> {
  return bus.publish(PROTOCOLS.bot.channel, { type, payload });
}

/**
 * Sends a message to one bot's socket, on whichever instance holds it (its `config` frames). A bot
 * with no socket open gets nothing: it is sent what it needs when it next says hello.
 */
export function publishToBot(bus: Bus, ghostId: string, type: string, payload: unknown): Promise<void> {
  return bus.publish(botChannel(ghostId), { type, payload });
}

/** Bus channel naming an admin session that has ended, so every instance closes that session's sockets. */
export const SESSION_ENDED_CHANNEL = 'admin-session-ended';
export const SessionEndedSchema = z.object({ sessionId: z.string().min(1) });

/**
 * Closes the admin sockets opened with this session cookie token, on every instance (the logout
 * route calls it). Only the session's id (the token's SHA-256, as stored) crosses the bus.
 */
export function publishSessionEnded(bus: Bus, token: string): Promise<void> {
  return bus.publish(SESSION_ENDED_CHANNEL, { sessionId: sha256(token) } satisfies z.infer<
    typeof SessionEndedSchema
  >);
}
