import { z } from 'zod';
import { GhostIdSchema } from './fleet.ts';

/*
 * Each bot its own credential (fleetdm's enroll secret -> node key): a bot presents the enrollment
 * secret (BOT_TOKEN) once to POST /api/bot/enroll and gets its own botToken, which its socket, its
 * POST /api/bot/events and its server pool calls present from then on. The rules:
 * docs/rules-fleet.md, "Bot credentials".
 */

/** POST /api/bot/enroll {ghostId}: `Authorization: Bearer <BOT_TOKEN>`, or the bot's current botToken to enroll it again. */
export const EnrollBotRequestSchema = z
  .strictObject({ ghostId: GhostIdSchema })
  .meta({ id: 'EnrollBotRequest' });
export type EnrollBotRequest = z.infer<typeof EnrollBotRequestSchema>;

/** 201: the bot's own credential, shown this once (only its hash is kept). */
export const EnrollBotResponseSchema = z
  .object({
    ghostId: z.string(),
    /** `Authorization: Bearer <botToken>` (or `?token=` on a socket) from now on. */
    botToken: z.string(),
  })
  .meta({ id: 'EnrollBotResponse' });
export type EnrollBotResponse = z.infer<typeof EnrollBotResponseSchema>;

/** Prefix of every botToken, so a token is recognisable as one bot's (and a shared token is not looked up). */
export const BOT_CREDENTIAL_PREFIX = 'bot_';

/** GET /api/admin/fleet/enrollments: the bots holding a live credential. */
export const ENROLLED_BOTS_URL = '/api/admin/fleet/enrollments';

/** DELETE /api/admin/fleet/enrollments/{ghostId}: revokes that bot's credential. */
export const revokeEnrollmentUrl = (ghostId: string) => `${ENROLLED_BOTS_URL}/${encodeURIComponent(ghostId)}`;

export const EnrolledBotSchema = z
  .object({
    ghostId: z.string(),
    /** ISO time of its (last) enrollment. */
    enrolledAt: z.string(),
    /** The address it enrolled from. */
    enrolledAddress: z.string().nullable(),
    /** ISO time its credential was last presented (to the minute), null before its first use. */
    lastSeenAt: z.string().nullable(),
    /** The address of that last use. */
    lastAddress: z.string().nullable(),
  })
  .meta({ id: 'EnrolledBot' });
export type EnrolledBot = z.infer<typeof EnrolledBotSchema>;

export const EnrolledBotsResponseSchema = z
  .object({ enrolledBots: z.array(EnrolledBotSchema) })
  .meta({ id: 'EnrolledBotsResponse' });
export type EnrolledBotsResponse = z.infer<typeof EnrolledBotsResponseSchema>;

export const RevokeEnrollmentParamsSchema = z.object({ ghostId: GhostIdSchema });

export const RevokeEnrollmentResponseSchema = z
  .object({ success: z.literal(true), ghostId: z.string() })
  .meta({ id: 'RevokeEnrollmentResponse' });
export type RevokeEnrollmentResponse = z.infer<typeof RevokeEnrollmentResponseSchema>;

/** What the server answers about bot credentials (the web shows the same words). */
export const BOT_ENROLLMENT_TEXTS = {
  alreadyEnrolled: (ghostId: string) =>
    `Bot ${ghostId} is already enrolled: enroll it again with its current botToken as the Bearer, or have the administrator revoke it first`,
  otherBot: (owner: string, named: string) =>
    `This botToken belongs to ${owner}: it cannot speak for ${named}`,
  enrolledNotShared: (ghostId: string) =>
    `Bot ${ghostId} has its own credential: authenticate with its botToken, not the shared bot token`,
  legacyOff:
    'The shared bot token only enrolls bots now (BOT_TOKEN_LEGACY is off): POST /api/bot/enroll, then use the botToken it returns',
  ghostIdRequired: 'ghostId is required with the shared bot token',
  revoked: "This bot's credential was revoked by the administrator",
  reEnrolled: 'This bot enrolled again: reconnect with its new botToken',
  notEnrolled: (ghostId: string) => `Bot ${ghostId} is not enrolled`,
} as const;
