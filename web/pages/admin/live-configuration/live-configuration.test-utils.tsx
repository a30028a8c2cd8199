import { RealtimeProvider } from '@/lib/realtime.tsx';
import { FakeWebSocket, fakeSocketOptions } from '@/test/fake-websocket.ts';
import { type FetchHandler, json, mockFetch } from '@/test/render.tsx';
import type {
  BotConfiguration,
  ConfigurationChange,
  ConfigurationDashboard,
  ConfigurationProfile,
} from '../../../../common/configuration.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { bots, dashboard, PROFILES } from './live-configuration.fixtures.ts';
import LiveConfigurationPage from './live-configuration.tsx';
import { useConfigurationEvents } from './use-configuration-events.ts';

// Radix Switch measures its thumb; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

/** What the fake server answers to the four GETs; POSTs are given per test. */
export interface FakeState {
  dashboard?: ConfigurationDashboard;
  configurations?: BotConfiguration[];
  profiles?: ConfigurationProfile[];
  changes?: ConfigurationChange[];
}

/** A recorded POST: its path and JSON body. */
export interface Post {
  path: string;
  body: unknown;
}

/**
 * Renders the page at /admin/configuration with the app's providers and a fake admin socket,
 * answering the GETs from `state` and the calls in `handlers` ("POST /path", or a path to replace a
 * GET); each POST's body is recorded in `sent`.
 */
export function renderLiveConfiguration(state: FakeState = {}, handlers: Record<string, FetchHandler> = {}) {
  const sent: Post[] = [];
  const recorded = Object.fromEntries(
    Object.entries(handlers).map(([key, handler]) => [
      key,
      ((init, url) => {
        if (key.startsWith('POST ')) {
          sent.push({ path: url.pathname, body: JSON.parse(String(init?.body ?? 'null')) });
        }
        return handler(init, url);
      }) satisfies FetchHandler,
    ]),
  );
  const fetchMock = mockFetch({
    '/api/admin/configurations/dashboard-stats': () => json(state.dashboard ?? dashboard()),
    '/api/admin/configurations': () => json({ configurations: state.configurations ?? bots(12) }),
    '/api/admin/configuration-profiles': () => json({ profiles: state.profiles ?? PROFILES }),
    '/api/admin/configurations/history': () => json({ changes: state.changes ?? [] }),
    ...recorded,
  });
  const result = renderAt(
    <RealtimeProvider options={fakeSocketOptions()}>
      <ShellEvents />
      <LiveConfigurationPage />
    </RealtimeProvider>,
    '/admin/configuration',
  );
  return { ...result, fetchMock, sent };
}

/** What the admin shell mounts around every screen: the configuration socket events. */
function ShellEvents() {
  useConfigurationEvents();
  return null;
}

export const socket = () => FakeWebSocket.instances.at(-1) as FakeWebSocket;

// The screens' shared helpers (GET counts, toasts, failing POSTs, a clean slate per test).
export { expectToast, failPosts, getsOf, resetBetweenTests } from '../shared/test-utils.tsx';
