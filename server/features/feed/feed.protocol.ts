import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { z } from 'zod';
import { FeedSocketSendsSchemas } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import { CLOSE_CODES, type SocketIdentity } from '../../realtime/connection.ts';
import { describeIssue } from '../../realtime/frames.ts';
import type { SocketProtocol } from '../../realtime/protocol.ts';
import { limitedClientOf } from '../security/client-address.ts';
import { FEED_CLOSE_CODES, FEED_TEXTS, type Feed } from './feed.service.ts';
import { FeedSocket } from './feed-socket.ts';
import type { FeedSocketCaps } from './feed-socket-caps.ts';

export const FEED_SOCKET_PATH = '/ws/feed';

/** What an open feed socket was asked for: its query, address and X-Hardware-Id header. */
interface FeedUpgrade {
  query: unknown;
  ip: string;
  /** The address as the caps count it (IPv6: its /64). */
  client: string;
  hardwareId: (fromQuery: string | undefined) => string | undefined;
}

export interface FeedSockets {
  /** The open feed sockets of this instance (the route hands each find to all of them). */
  readonly open: Set<FeedSocket>;
  /** FEED_SOCKETS_PER_ADDRESS and FEED_SOCKETS_PER_KEY, counted on this instance. */
  readonly caps: FeedSocketCaps<FeedSocket>;
  readonly feed: Feed;
  querySchema: z.ZodType<{ key?: string; hwid?: string; since?: number }>;
  hardwareIdOf(request: FastifyRequest, fromQuery: string | undefined): string | undefined;
  /** The feed's own upgrade limit (per address and per key). */
  rateLimit: preHandlerHookHandler[];
}

/**
 * The discovery feed's socket protocol on /ws/feed: anyone may open it (the key is checked once it
 * is open, and a refusal is an `error` frame, then 1008); it only listens. The liveness sweep checks
 * the key again (switched off, expired: the socket closes). An address holding its share of sockets
 * is refused: 429 on the upgrade, or, for one that raced past that check, an `error` frame and 4429.
 */
export function feedProtocol(ctx: AppContext, sockets: FeedSockets): SocketProtocol {
  const upgrades = new WeakMap<SocketIdentity, FeedUpgrade>();
  const feedSockets = new WeakMap<SocketIdentity, FeedSocket>();
  return {
    kind: 'feed',
    path: FEED_SOCKET_PATH,
    preHandler: sockets.rateLimit,
    countsUpgrades: false,
    ignoresMessages: true,
    async authenticate(request) {
      const client = limitedClientOf(request);
      if (sockets.caps.isFull(client)) {
        return { refused: { status: 429, error: FEED_TEXTS.addressFull(sockets.caps.limits.perAddress) } };
      }
      const identity: SocketIdentity = {
        kind: 'feed',
        async stillValid() {
          await feedSockets.get(identity)?.recheck();
          return true;
        },
      };
      upgrades.set(identity, {
        query: request.query,
        ip: request.ip ?? 'inject',
        client,
        hardwareId: (fromQuery) => sockets.hardwareIdOf(request, fromQuery),
      });
      return identity;
    },
    accepts: {},
    sends: FeedSocketSendsSchemas,
    replaceable: new Set(),
    async onConnect({ connection, log }) {
      const upgrade = upgrades.get(connection.identity);
      const query = sockets.querySchema.safeParse(upgrade?.query);
      if (!upgrade || !query.success) {
        connection.send('error', { error: query.success ? 'Bad feed request' : describeIssue(query.error) });
        connection.close(CLOSE_CODES.policyViolation, 'Bad feed request');
        return;
      }
      // Checked and counted in one synchronous step: upgrades racing each other cannot all pass.
      const { caps } = sockets;
      if (caps.isFull(upgrade.client)) {
        const error = FEED_TEXTS.addressFull(caps.limits.perAddress);
        connection.send('error', { error });
        connection.close(FEED_CLOSE_CODES.addressFull, error.slice(0, 120));
        return;
      }
      const { key, hwid, since } = query.data;
      const feedSocket = new FeedSocket(
        connection,
        { key, hwid: upgrade.hardwareId(hwid), since, ip: upgrade.ip },
        { feed: sockets.feed, stream: ctx.services.fleet.discoveries, caps, ctx, log },
      );
      caps.open(feedSocket, upgrade.client);
      feedSockets.set(connection.identity, feedSocket);
      sockets.open.add(feedSocket);
    },
    async onDisconnect({ connection }) {
      const feedSocket = feedSockets.get(connection.identity);
      if (!feedSocket) return;
      sockets.open.delete(feedSocket);
      feedSocket.dispose();
    },
  };
}
