/** Seconds a bot is told to wait when the writer is full (the database is behind or away). */
export const WRITER_FULL_RETRY_SECONDS = 5;
/** Seconds a bot is told to wait while the fleet's shared counter (Redis) is away. */
export const SEQUENCE_RETRY_SECONDS = 2;

/** What bots and administrators are told when the fleet refuses something. */
export const FLEET_TEXTS = {
  /** With the configured FLEET_MAX_BOTS. */
  full: (maxBots: number) => `The fleet is full: at most ${maxBots} scanners`,
  sayHello: 'Say hello first',
  removed: 'This bot was removed from the fleet',
  unknownBot: (ghostId: string) => `Unknown bot: ${ghostId}`,
  sequenceUnavailable: `Redis, which numbers the fleet's events, is unreachable: send them again in ${SEQUENCE_RETRY_SECONDS} s`,
  writerFull: `The server is behind on writing events: send them again in ${WRITER_FULL_RETRY_SECONDS} s`,
} as const;
