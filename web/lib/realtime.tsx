import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useEffectEvent,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import type { ServerMessagePayloads } from '../../common/realtime.ts';
import {
  INITIAL_STATE,
  RealtimeClient,
  type RealtimeClientOptions,
  type RealtimeMessage,
  type RealtimeState,
} from './realtime-client.ts';

/**
 * The admin socket for React. The admin layout mounts <RealtimeProvider> once a session is
 * confirmed; screens read the connection with useRealtime() and subscribe to message types with
 * useRealtimeMessages(). The connection logic itself is RealtimeClient (realtime-client.ts).
 */
export type {
  ConnectionQuality,
  ConnectionStatus,
  RealtimeMessage,
  RealtimeState,
} from './realtime-client.ts';
export { ANY_MESSAGE } from './realtime-client.ts';

export interface RealtimeApi extends RealtimeState {
  /** Connect again now (resets the attempt count). */
  reconnect(): void;
  /** Sends a frame; false when not connected. */
  send(type: string, payload?: unknown): boolean;
  /** Asks the server for a system_health answer. */
  requestSystemHealth(): void;
  /** Reconnections resume the fleet stream after this cursor's seq (null: no resume). */
  setResumeCursor(cursor: (() => number | null) | null): void;
}

const offline: RealtimeApi = {
  ...INITIAL_STATE,
  reconnect: () => {},
  send: () => false,
  requestSystemHealth: () => {},
  setResumeCursor: () => {},
};

const RealtimeContext = createContext<RealtimeApi>(offline);
const ClientContext = createContext<RealtimeClient | null>(null);

export interface RealtimeProviderProps {
  children: ReactNode;
  /** URL, WebSocket constructor or timing overrides, read once on mount; tests use these, the app needs none. */
  options?: RealtimeClientOptions;
}

/** Opens the admin socket on mount and closes it normally (1000) on unmount. */
export function RealtimeProvider({ children, options }: RealtimeProviderProps) {
  const [client] = useState(() => new RealtimeClient(options));
  useEffect(() => {
    client.start();
    return client.stop;
  }, [client]);

  const state = useSyncExternalStore(client.subscribeState, client.getState, client.getState);
  const api = useMemo<RealtimeApi>(
    () => ({
      ...state,
      reconnect: client.reconnect,
      send: client.send,
      requestSystemHealth: client.requestSystemHealth,
      setResumeCursor: client.setResumeCursor,
    }),
    [client, state],
  );

  return (
    <ClientContext.Provider value={client}>
      <RealtimeContext.Provider value={api}>{children}</RealtimeContext.Provider>
    </ClientContext.Provider>
  );
}

/** The connection's state and actions; offline (and inert) outside a RealtimeProvider. */
export function useRealtime(): RealtimeApi {
  return useContext(RealtimeContext);
}

/** The payload type of a known server message type; unknown for the rest. */
export type PayloadOf<T extends string> = T extends keyof ServerMessagePayloads
  ? ServerMessagePayloads[T]
  : unknown;

/**
 * Calls `handler` for every incoming message of the given type(s), in arrival order, at most one
 * batch per 100 ms (never dropping any). The handler may change between renders without
 * resubscribing. Use ANY_MESSAGE for every type.
 *
 *     useRealtimeMessages('server_hop', (message) => addHop(message.payload));
 */
export function useRealtimeMessages<T extends string>(
  types: T | readonly T[],
  handler: (message: RealtimeMessage<PayloadOf<T>>) => void,
): void {
  const client = useContext(ClientContext);
  const onMessage = useEffectEvent((message: RealtimeMessage) =>
    handler(message as RealtimeMessage<PayloadOf<T>>),
  );
  // A stable key, so an inline array literal does not resubscribe on every render.
  const key = (typeof types === 'string' ? [types] : [...types]).join('\n');
  useEffect(() => {
    if (!client) return;
    const unsubscribes = key.split('\n').map((type) => client.subscribe(type, (m) => onMessage(m)));
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }, [client, key]);
}
