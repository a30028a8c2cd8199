import { z } from 'zod';
import type { ServerMessagePayloads, ServerMessageType } from '../../common/realtime.ts';
import type { Bus } from './bus.ts';

export type PayloadFor<T extends string> = T extends ServerMessageType ? ServerMessagePayloads[T] : unknown;

/**
 * How a feature sends frames: never to sockets directly, so fan-out across instances, coalescing
 * and framing stay in the transport. Each feature gets it from the service container
 * (`ctx.services.publisher`).
 *
 *     await ctx.services.publisher.toAll('admin', 'system_config_update', { message: 'Slots set to 40' });
 */
export interface Publisher {
  /** To every socket of a client kind ('admin', 'bot'), on every server instance. */
  toAll<T extends string>(kind: string, type: T, payload: PayloadFor<T>): Promise<void>;
  /**
   * To the sockets following a topic (a bot's own `bot:<ghostId>`), on whichever instance holds them.
   * Nobody following: nobody gets it.
   */
  toTopic<T extends string>(topic: string, type: T, payload: PayloadFor<T>): Promise<void>;
  /** Closes the sockets opened with this session id, on every instance (a logout). */
  endSession(sessionId: string): Promise<void>;
}

/** The bus channel carrying one client kind's frames. */
export const kindChannel = (kind: string) => (kind === 'bot' ? 'bots' : kind);

/** The bus channel naming an admin session that has ended, so every instance closes its sockets. */
export const SESSION_ENDED_CHANNEL = 'admin-session-ended';
export const SessionEndedSchema = z.object({ sessionId: z.string().min(1) });

/**
 * A publisher over the bus. `check` (the transport's, in development and tests) refuses a payload
 * its kind's schema does not accept, so a frame no client could read fails where it is built.
 */
export function createPublisher(
  bus: Bus,
  check: (type: string, payload: unknown) => void = () => {},
): Publisher {
  return {
    toAll(kind, type, payload) {
      check(type, payload);
      return bus.publish(kindChannel(kind), { type, payload });
    },
    toTopic(topic, type, payload) {
      check(type, payload);
      return bus.publish(topic, { type, payload });
    },
    endSession(sessionId) {
      return bus.publish(SESSION_ENDED_CHANNEL, { sessionId } satisfies z.infer<typeof SessionEndedSchema>);
    },
  };
}
