import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useRealtime, useRealtimeMessages } from '@/lib/realtime.tsx';
import {
  applyFleetMessages,
  type FleetFeed,
  type FleetFeedState,
  type FleetMessage,
  INITIAL_FLEET_FEED,
} from './fleet-feed.ts';

const FLEET_MESSAGE_TYPES = [
  'fleet_backfill',
  'server_hop',
  'live_data',
  'scanner_status',
  'hop_stats',
  'system_health',
] as const;

/**
 * The fleet's live state from the admin socket. The socket client hands messages over in batches
 * at most every 100 ms; each batch becomes one state update. Reconnections resume after the last seq
 * applied (`?since=`), and the reducer skips anything at or below it, so no event shows twice.
 * With `autoRefresh` OFF the view holds still: messages keep being applied (so nothing is missed and
 * the resume cursor moves), and turning it ON shows where the fleet is now.
 */
export function useFleetFeed(autoRefresh = true): FleetFeed {
  const { status, reconnect, setResumeCursor } = useRealtime();
  const [state, setState] = useState<FleetFeedState>(INITIAL_FLEET_FEED);
  // The lists as they were when Pause Feed was pressed.
  const [frozen, setFrozen] = useState<FleetFeedState | null>(null);
  // Everything as it was when Auto Refresh was turned OFF (React's "state from the previous render").
  const [held, setHeld] = useState<FleetFeedState | null>(null);
  if (!autoRefresh && held === null) setHeld(state);
  else if (autoRefresh && held !== null) setHeld(null);
  const shown = held ?? state;

  const cursor = useRef<number | null>(null);
  cursor.current = state.cursor;
  useEffect(() => {
    setResumeCursor(() => cursor.current);
    return () => setResumeCursor(null);
  }, [setResumeCursor]);

  // The server sends the backfill when a socket connects: a page opened on a socket that was
  // already up missed it, and a fresh connection is the only way to ask for another.
  const connectedAtMount = useRef(status === 'connected');
  useEffect(() => {
    if (connectedAtMount.current) reconnect();
  }, [reconnect]);

  // One state update per delivered batch, rather than one (and a copy of each list) per message.
  const pending = useRef<FleetMessage[]>([]);
  useRealtimeMessages(FLEET_MESSAGE_TYPES, (message) => {
    pending.current.push(message as FleetMessage);
    if (pending.current.length > 1) return;
    queueMicrotask(() => {
      const batch = pending.current;
      pending.current = [];
      setState((current) => applyFleetMessages(current, batch, Date.now()));
    });
  });

  const setPaused = useCallback(
    (paused: boolean) => setFrozen(paused ? (current) => current ?? shown : null),
    [shown],
  );

  return useMemo<FleetFeed>(() => {
    // Paused: the lists stay as they were; figures, scanners and statistics stay live (unless held).
    const lists = frozen ?? shown;
    return {
      ...shown,
      hops: lists.hops,
      discoveries: lists.discoveries,
      liveEvents: lists.liveEvents,
      paused: frozen !== null,
      held: held !== null,
      pendingEvents: state.totals.events - lists.totals.events,
      setPaused,
    };
  }, [state, shown, held, frozen, setPaused]);
}

/**
 * Spec section 7: while auto refresh is ON and the socket is connected, ask for scanner_status and
 * system_health on connect and then every `intervalMs`.
 */
export function useMonitoringPoll(autoRefresh: boolean, intervalMs = 5000): void {
  const { status, send } = useRealtime();
  const connected = status === 'connected';
  useEffect(() => {
    if (!autoRefresh || !connected) return;
    const poll = () => {
      send('scanner_status', {});
      send('system_health', {});
    };
    poll();
    const timer = setInterval(poll, intervalMs);
    return () => clearInterval(timer);
  }, [autoRefresh, connected, send, intervalMs]);
}
