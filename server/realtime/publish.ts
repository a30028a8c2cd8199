import type { ServerMessagePayloads, ServerMessageType } from '../../common/realtime.ts';
import type { Bus } from './bus.ts';
import { PROTOCOLS } from './handlers.ts';

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
