import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { BotFrame, ConfigAckPayloadSchema } from '../../../common/fleet.ts';

/** A frame waiting for a bot that has no socket: what it would have been sent there. */
export interface WaitingFrame {
  type: 'config' | 'emergency_stop' | 'emergency_resume';
  payload: unknown;
}

/**
 * What the features above the fleet do for a bot that speaks only POST /api/bot/events (the
 * configuration feature: its acks, and the frames it is handed). The fleet cannot import them
 * (features import downwards), so that feature's entry hands them over as a service.
 */
export interface HttpBotFrames {
  configAcknowledged(ghostId: string, ack: z.infer<typeof ConfigAckPayloadSchema>): Promise<void>;
  /** The frames waiting for the bot, handed over now (its acknowledgement deadline starts here). */
  handOver(ghostId: string): Promise<WaitingFrame[]>;
}

/** The socket's frame shape, so a bot reads both the same way. */
export function toBotFrames(frames: WaitingFrame[], now: number): BotFrame[] {
  const timestamp = new Date(now).toISOString();
  return frames.map(({ type, payload }) => ({ type, payload, id: randomUUID(), timestamp }));
}

declare module '../../context.ts' {
  interface AppServices {
    /** A bot without a socket: its acks and its waiting frames (the configuration feature's). */
    httpBotFrames: HttpBotFrames;
  }
}
