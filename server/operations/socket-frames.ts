import { z } from 'zod';
import { ConfigFramePayloadSchema, EmergencyFramePayloadSchema } from '../../common/configuration.ts';
import { BotMessageSchemas, BotSocketSendsSchemas, FeedSocketSendsSchemas } from '../../common/fleet.ts';
import { ClientMessageSchemas, ServerMessageSchemas, SOCKET_PATH } from '../../common/realtime.ts';

/*
 * The socket protocols in the API document: every frame `{type, payload, id, timestamp}` as a
 * component schema built from the zod schemas the server and clients check frames against, and the
 * two upgrade paths as GET operations that point at them (`x-frames`). One document, one validator.
 */

type MessageMap = Record<string, z.ZodType>;

/** What the server adds to every frame it sends: a random id and an ISO time. */
const sentByServer = { id: z.string(), timestamp: z.string() };
/** What a client may add (common/realtime.ts FrameSchema). */
const sentByClient = {
  id: z.string().max(100).optional(),
  timestamp: z.union([z.number(), z.string().max(50)]).optional(),
};

function framesOf(messages: MessageMap, envelope: Record<string, z.ZodType>, description: string) {
  const frames = Object.entries(messages).map(([type, payload]) =>
    z.object({ type: z.literal(type), payload, ...envelope }),
  );
  return z.union(frames).meta({ description });
}

/** Server → bot: the bot socket's own frames, plus the configuration feature's. */
const botReceives: MessageMap = {
  ...BotSocketSendsSchemas,
  config: ConfigFramePayloadSchema,
  emergency_stop: EmergencyFramePayloadSchema,
  emergency_resume: EmergencyFramePayloadSchema,
};

/** Each frame schema, with whether it is read as sent (input) or as the server builds it (output). */
const SOCKET_FRAMES = {
  AdminSocketServerFrame: {
    io: 'output',
    schema: framesOf(ServerMessageSchemas, sentByServer, 'What /ws sends an admin dashboard'),
  },
  AdminSocketClientFrame: {
    io: 'input',
    schema: framesOf(ClientMessageSchemas, sentByClient, 'What an admin dashboard may send on /ws'),
  },
  BotSocketClientFrame: {
    io: 'input',
    schema: framesOf(BotMessageSchemas, sentByClient, 'What a bot sends on /ws; `hello` comes first'),
  },
  BotSocketServerFrame: {
    io: 'output',
    schema: framesOf(botReceives, sentByServer, 'What /ws sends a bot'),
  },
  FeedSocketServerFrame: {
    io: 'output',
    schema: framesOf(FeedSocketSendsSchemas, sentByServer, 'What /ws/feed sends a script user'),
  },
} as const;

/** The frames as OpenAPI 3.1 (JSON Schema 2020-12) component schemas. */
export function socketFrameSchemas(): Record<string, object> {
  return Object.fromEntries(
    Object.entries(SOCKET_FRAMES).map(([name, { io, schema }]) => {
      const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
        target: 'draft-2020-12',
        io,
        unrepresentable: 'any',
      });
      return [name, json];
    }),
  );
}

const ref = (name: keyof typeof SOCKET_FRAMES) => ({ $ref: `#/components/schemas/${name}` });
const refused = {
  description:
    'Refused before the upgrade (no or bad credentials, too many attempts, a bad query): `{error}`',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
};
const query = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string' },
});

/** The upgrade paths, as GET operations whose `x-frames` name the frames each side sends. */
export function socketPaths(): Record<string, object> {
  return {
    [SOCKET_PATH]: {
      get: {
        tags: ['realtime'],
        summary: 'Admin dashboards and scanner bots: a WebSocket of JSON frames',
        description:
          'Upgrade to a WebSocket. A browser with the admin session cookie gets the dashboard protocol ' +
          '(AdminSocketServerFrame / AdminSocketClientFrame; a backfill first). A bot with its token ' +
          '(Authorization: Bearer, or ?token=) gets the bot protocol (BotSocketClientFrame / ' +
          'BotSocketServerFrame). A server restart closes with 1012 or 1001: reconnect.',
        operationId: 'openSocket',
        security: [{ adminSession: [] }, { botToken: [] }, { botTokenQuery: [] }],
        parameters: [
          query('since', 'Dashboards: the cursor to resume from (events after it are sent first)'),
          query('ghostId', 'Bots: the bot this upgrade counts against (its hello must then match)'),
        ],
        responses: { '101': { description: 'Switching Protocols: the socket is open' }, '4XX': refused },
        'x-frames': {
          admin: { serverSends: ref('AdminSocketServerFrame'), clientSends: ref('AdminSocketClientFrame') },
          bot: { serverSends: ref('BotSocketServerFrame'), clientSends: ref('BotSocketClientFrame') },
        },
      },
    },
    '/ws/feed': {
      get: {
        tags: ['realtime'],
        summary: 'The live discovery feed: a WebSocket of finds',
        description:
          'Upgrade to a WebSocket with the script key (FREE without one). The server sends `ready`, then a ' +
          '`discovery` frame for every find the tier may see (FeedSocketServerFrame); a refused key gets ' +
          'an `error` frame and the socket closes. Clients send nothing.',
        operationId: 'openFeedSocket',
        security: [{}, { scriptKey: [] }],
        parameters: [
          query('hwid', 'The device id (or the X-Hardware-Id header)'),
          query('since', 'A cursor from an earlier answer: the finds after it are sent first'),
        ],
        responses: { '101': { description: 'Switching Protocols: the feed is open' }, '4XX': refused },
        'x-frames': { serverSends: ref('FeedSocketServerFrame') },
      },
    },
  };
}
