import { ClientMessageSchemas, ServerMessageSchemas, SOCKET_PATH } from '../../../common/realtime.ts';
import type { AppContext } from '../../context.ts';
import type { RealtimeConnection, SocketIdentity } from '../../realtime/connection.ts';
import { encodeFrame } from '../../realtime/frames.ts';
import { defineHandler, type HandlerEnv, type SocketProtocol } from '../../realtime/protocol.ts';
import { authenticateAdminSocket } from '../auth/admin-socket.ts';
import {
  connectFleetToDashboards,
  fleetStateFrames,
  startDashboardStream,
  stopDashboardStream,
} from './fleet-stream.ts';
import { readSystemHealth } from './system-health.ts';

/** A dashboard's `?since=SEQ`: the last fleet event it has, to be sent exactly what it missed. */
const resumes = new WeakMap<SocketIdentity, number>();
/** What each dashboard calls when it leaves: the instance then no longer needs every hop for it. */
const watches = new WeakMap<RealtimeConnection, () => void>();

/**
 * The admin dashboard's protocol (session cookie): system health, and the fleet's live stream
 * (fleet_backfill on connect, then every hop and discovery; see fleet-stream.ts). What other
 * features publish to dashboards (configuration, licensing, system) goes through the publisher.
 */
export function adminProtocol(ctx: AppContext): SocketProtocol {
  async function sendSystemHealth({ clients, connection }: HandlerEnv): Promise<void> {
    connection.deliverMessage('system_health', await readSystemHealth(ctx, () => clients.count('admin')));
  }

  /** Tells the other dashboards their connected-client count changed. */
  async function announceClientCount({ clients, connection }: HandlerEnv): Promise<void> {
    if (clients.count('admin') === 0) return;
    const health = await readSystemHealth(ctx, () => clients.count('admin'));
    clients.broadcast('admin', encodeFrame('system_health', health, ctx.now()), connection);
  }

  return {
    kind: 'admin',
    path: SOCKET_PATH,
    async authenticate(request) {
      const identity = await authenticateAdminSocket(ctx, request);
      if (!identity) return null;
      const since = (request.query as Record<string, unknown> | undefined)?.since;
      if (since !== undefined) {
        if (typeof since !== 'string' || !/^\d{1,15}$/.test(since)) {
          return { refused: { status: 400, error: 'since must be a whole number (the last seq you have)' } };
        }
        resumes.set(identity, Number(since));
      }
      return identity;
    },
    // licensing_changed only makes screens fetch again: one per burst is enough.
    // scanner_status and hop_stats are the fleet's state: the newest copy is all a dashboard needs.
    // configuration_progress only makes the configuration screen fetch again, like licensing_changed.
    replaceable: new Set([
      'system_health',
      'scanner_status',
      'hop_stats',
      'licensing_changed',
      'configuration_progress',
    ]),
    accepts: {
      heartbeat: defineHandler(ClientMessageSchemas.heartbeat, (_payload, { connection }) => {
        connection.send('heartbeat', { serverTime: ctx.now() });
      }),
      system_health: defineHandler(ClientMessageSchemas.system_health, (_payload, env) =>
        sendSystemHealth(env),
      ),
      // The live scanner list and network stats (and, with them, the hop statistics).
      scanner_status: defineHandler(ClientMessageSchemas.scanner_status, (_payload, { connection }) => {
        for (const frame of fleetStateFrames(ctx.services.fleet, ctx.now())) connection.deliver(frame);
      }),
      // The spec lists server_hop among what the dashboard sends; it asks for nothing yet, so it is
      // accepted quietly (the fleet feature may answer with recent hops).
      server_hop: defineHandler(ClientMessageSchemas.server_hop, () => {}),
    },
    // Every kind a dashboard is sent (common/realtime.ts), the fleet's stream and the publisher's alike.
    sends: ServerMessageSchemas,
    async onConnect(env) {
      // The first dashboard here: this instance starts hearing every hop, and reads the recent ones.
      const { ready, release } = ctx.services.fleet.watch();
      watches.set(env.connection, release);
      if (ready) await ready;
      // Then synchronously: every fleet event applied so far is in what this sends.
      startDashboardStream(ctx, env.connection, resumes.get(env.connection.identity));
      await sendSystemHealth(env);
      await announceClientCount(env);
    },
    async onDisconnect(env) {
      watches.get(env.connection)?.();
      stopDashboardStream(env.connection);
      await announceClientCount(env);
    },
    start(clients, log) {
      const stopStream = connectFleetToDashboards(ctx, clients);
      // The fleet's counts are part of system_health: dashboards get it again when they change.
      const stopHealth = ctx.services.fleet.onStateChange(() => {
        if (clients.count('admin') === 0) return;
        void readSystemHealth(ctx, () => clients.count('admin')).then(
          (health) => clients.broadcast('admin', encodeFrame('system_health', health, ctx.now())),
          (err: unknown) => log.warn({ err }, 'could not read system health'),
        );
      });
      return () => {
        stopStream();
        stopHealth();
      };
    },
  };
}
