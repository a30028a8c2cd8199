import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, fakeSocketOptions } from '../test/fake-websocket.ts';
import { serverHop, systemHealth } from '../test/server-frames.ts';
import { RealtimeProvider, useRealtime, useRealtimeMessages } from './realtime.tsx';

const options = fakeSocketOptions();

function renderWithProvider(ui: ReactNode, queryClient = new QueryClient()) {
  return render(
    <QueryClientProvider client={queryClient}>
      <RealtimeProvider options={options}>{ui}</RealtimeProvider>
    </QueryClientProvider>,
  );
}

function StatusBadge() {
  const { status, quality, systemHealth, requestSystemHealth } = useRealtime();
  return (
    <div>
      <span data-testid="status">{status}</span>
      <span data-testid="quality">{quality}</span>
      <span data-testid="clients">{systemHealth?.connectedClients ?? '-'}</span>
      <button onClick={requestSystemHealth}>Refresh Status</button>
    </div>
  );
}

let hops: string[] = [];
function HopList() {
  useRealtimeMessages('server_hop', (message) => {
    hops.push((message.payload as { botId: string }).botId);
  });
  return null;
}

beforeEach(() => {
  FakeWebSocket.instances = [];
  hops = [];
});
afterEach(() => {
  vi.useRealTimers();
});

const socket = () => FakeWebSocket.instances.at(-1)!;

describe('RealtimeProvider', () => {
  it('connects on mount and shows status and system health', async () => {
    renderWithProvider(<StatusBadge />);
    expect(screen.getByTestId('status').textContent).toBe('connecting');
    expect(socket().url).toBe('ws://test/ws');
    socket().open();
    expect(screen.getByTestId('status').textContent).toBe('connected');
    expect(screen.getByTestId('quality').textContent).toBe('excellent');
    socket().receive('system_health', systemHealth({ connectedClients: 3 }));
    await waitFor(() => expect(screen.getByTestId('clients').textContent).toBe('3'));
  });

  it('sends a system_health request from the Refresh Status button', () => {
    renderWithProvider(<StatusBadge />);
    socket().open();
    act(() => screen.getByRole('button', { name: 'Refresh Status' }).click());
    expect(socket().sent.map((f) => f.type)).toEqual(['heartbeat', 'system_health']);
  });

  it('hands subscribed screens every message of their type, in order', async () => {
    renderWithProvider(<HopList />);
    socket().open();
    socket().receive('server_hop', serverHop(1, { botId: 'bot-1' }));
    socket().receive('licensing_changed', { entity: 'license_key' });
    socket().receive('server_hop', serverHop(2, { botId: 'bot-2' }));
    await waitFor(() => expect(hops).toEqual(['bot-1', 'bot-2']));
  });

  it('hands screens no message whose payload does not fit its type, and warns in the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWithProvider(<HopList />);
    socket().open();
    socket().receive('server_hop', { botId: 'bot-0' });
    socket().receive('server_hop', serverHop(1, { botId: 'bot-1' }));
    await waitFor(() => expect(hops).toEqual(['bot-1']));
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^realtime: dropped a server_hop frame: /));
    warn.mockRestore();
  });

  it('closes the socket normally (1000) on unmount', () => {
    const { unmount } = renderWithProvider(<StatusBadge />);
    socket().open();
    unmount();
    expect(socket().closedWith).toBe(1000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('shows a lost connection as disconnected and reconnects', () => {
    vi.useFakeTimers();
    renderWithProvider(<StatusBadge />);
    socket().open();
    act(() => socket().onclose?.({ code: 1006 }));
    expect(screen.getByTestId('status').textContent).toBe('disconnected');
    expect(screen.getByTestId('quality').textContent).toBe('critical');
    act(() => vi.advanceTimersByTime(2000));
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(screen.getByTestId('status').textContent).toBe('connecting');
  });
});

describe('without a provider', () => {
  it('reads as offline and sends nothing', () => {
    render(<StatusBadge />);
    expect(screen.getByTestId('status').textContent).toBe('disconnected');
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});
