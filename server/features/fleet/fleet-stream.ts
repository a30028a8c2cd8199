import { liveDataOf } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { RealtimeConnection } from '../../realtime/connection.ts';
import { type EncodedFrame, encodeFrame } from '../../realtime/frames.ts';
import type { Clients } from '../../realtime/protocol.ts';
import type { Fleet, FleetEventWithSeq } from './fleet.service.ts';

/*
 * The fleet's event stream on admin sockets. A dashboard gets a `fleet_backfill` on connect (or,
 * reconnecting with ?since=SEQ, exactly the events it missed), then every hop (`server_hop`) and
 * discovery (`live_data`) as it happens, and the scanners and statistics (`scanner_status`,
 * `hop_stats`, coalesced) when they change. A dashboard that stops reading is not queued for: past
 * HIGH_WATER_BYTES of unread output its events are skipped, and once it has drained it gets one
 * fresh `fleet_backfill` with reset: true, so memory stays bounded however slow it is.
 */

/** Unread output past which a dashboard's events are skipped rather than queued. */
export const HIGH_WATER_BYTES = 1024 * 1024;
/** Unread output below which a skipping dashboard is caught up with a fresh snapshot. */
export const LOW_WATER_BYTES = 64 * 1024;
const DRAIN_CHECK_MS = 50;

interface DashboardStream {
  /** False until the backfill went out: events before it are in the backfill already. */
  ready: boolean;
  /** Set while events are being skipped for a dashboard that does not keep up. */
  lagging: boolean;
  timer: NodeJS.Timeout | undefined;
}

const streams = new WeakMap<RealtimeConnection, DashboardStream>();

export function encodeFleetEvent(event: FleetEventWithSeq, now: number): EncodedFrame {
  return event.kind === 'hop'
    ? encodeFrame('server_hop', event.hop, now)
    : encodeFrame('live_data', liveDataOf(event.discovery), now);
}

/** The current scanners and statistics, as replaceable frames. */
export function fleetStateFrames(fleet: Fleet, now: number): EncodedFrame[] {
  return [
    encodeFrame(
      'scanner_status',
      { scanners: fleet.state.scannerList(now), networkStats: fleet.state.networkStats(now) },
      now,
    ),
    encodeFrame('hop_stats', fleet.state.hopStats(now), now),
  ];
}

/**
 * Starts a dashboard's stream: with `since` it can be served exactly, the missed events in order
 * and the current state; otherwise the whole backfill (reset: true when it asked for a resume).
 * Synchronous, so no event lands between what it is sent and what follows.
 */
export function startDashboardStream(ctx: AppContext, connection: RealtimeConnection, since?: number): void {
  const fleet = ctx.services.fleet;
  const stream: DashboardStream = { ready: true, lagging: false, timer: undefined };
  streams.set(connection, stream);
  const missed = since === undefined ? null : fleet.eventsAfter(since);
  if (missed === null) {
    connection.send('fleet_backfill', fleet.backfill(since !== undefined));
    return;
  }
  // Through the same check as live events: a resume of thousands that it cannot take in turns into
  // one reset backfill once it has drained, rather than a pile of unread output.
  const now = ctx.now();
  for (const event of missed) deliverToDashboard(ctx, connection, encodeFleetEvent(event, now));
  for (const frame of fleetStateFrames(fleet, now)) deliverToDashboard(ctx, connection, frame);
}

/** Sends one fleet frame to a dashboard unless it has not had its backfill yet or cannot keep up. */
export function deliverToDashboard(
  ctx: AppContext,
  connection: RealtimeConnection,
  frame: EncodedFrame,
): void {
  const stream = streams.get(connection);
  if (!stream?.ready || stream.lagging || !connection.isOpen) return;
  if (connection.socket.bufferedAmount > HIGH_WATER_BYTES) {
    stream.lagging = true;
    stream.timer = setInterval(() => {
      if (!connection.isOpen) {
        clearInterval(stream.timer);
        return;
      }
      if (connection.socket.bufferedAmount > LOW_WATER_BYTES) return;
      clearInterval(stream.timer);
      stream.lagging = false;
      connection.send('fleet_backfill', ctx.services.fleet.backfill(true));
    }, DRAIN_CHECK_MS).unref();
    return;
  }
  connection.deliver(frame);
}

export function stopDashboardStream(connection: RealtimeConnection): void {
  const stream = streams.get(connection);
  if (stream) clearInterval(stream.timer);
  streams.delete(connection);
}

/** Wires the fleet to this instance's dashboards; returns the function that unwires it. */
export function connectFleetToDashboards(ctx: AppContext, clients: Clients): () => void {
  const fleet = ctx.services.fleet;
  const offEvent = fleet.onEvent((event) => {
    if (clients.count('admin') === 0) return;
    const frame = encodeFleetEvent(event, ctx.now());
    for (const connection of clients.ofKind('admin')) deliverToDashboard(ctx, connection, frame);
  });
  const offState = fleet.onStateChange(() => {
    if (clients.count('admin') === 0) return;
    const frames = fleetStateFrames(fleet, ctx.now());
    for (const connection of clients.ofKind('admin')) {
      for (const frame of frames) deliverToDashboard(ctx, connection, frame);
    }
  });
  return () => {
    offEvent();
    offState();
  };
}
