import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime.tsx';
import { getServerId } from '@/lib/session-id.ts';
import { FakeWebSocket, fakeSocketOptions } from '@/test/fake-websocket.ts';
import { useRealtimeInvalidation } from './use-realtime-invalidation.ts';

vi.mock('@/lib/toast.ts', () => ({ toast: vi.fn() }));
const { toast } = await import('@/lib/toast.ts');

function Invalidation() {
  useRealtimeInvalidation();
  return null;
}

function renderWithProvider(queryClient: QueryClient) {
  return render(
    <QueryClientProvider client={queryClient}>
      <RealtimeProvider options={fakeSocketOptions()}>
        <Invalidation />
      </RealtimeProvider>
    </QueryClientProvider>,
  );
}

const socket = () => FakeWebSocket.instances.at(-1)!;

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.mocked(toast).mockClear();
});

describe('useRealtimeInvalidation', () => {
  it('refreshes configuration and slot usage and toasts on system_config_update', async () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    renderWithProvider(queryClient);
    socket().open();
    socket().receive('system_config_update', { message: 'Total slots set to 40' });
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: 'Total slots set to 40' }));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/admin/system-configuration'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/admin/system-configuration/slot-usage'] });

    socket().receive('system_config_update', {});
    await waitFor(() => expect(toast).toHaveBeenLastCalledWith({ title: 'Configuration has been updated' }));
  });

  it("refreshes but shows no second toast for this tab's own save (its own toast already said so)", async () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    renderWithProvider(queryClient);
    socket().open();
    socket().receive('system_config_update', {
      message: 'Configuration has been updated',
      from: getServerId(),
    });
    await waitFor(() =>
      expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/admin/system-configuration'] }),
    );
    expect(toast).not.toHaveBeenCalled();
    socket().receive('system_config_update', {
      message: 'Configuration has been updated',
      from: 'web-another-tab',
    });
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: 'Configuration has been updated' }));
  });

  it('refreshes the dashboard figures, slot usage and licensing lists on licensing_changed', async () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    renderWithProvider(queryClient);
    socket().open();
    socket().receive('licensing_changed', { entity: 'redemption_code' });
    await waitFor(() =>
      expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/admin/dashboard/stats'] }),
    );
    for (const url of [
      '/api/admin/system-configuration/slot-usage',
      '/api/admin/redemption-keys',
      '/api/admin/script-keys/list',
      '/api/admin/license-keys',
      '/api/admin/hardware/bindings',
    ]) {
      expect(invalidate).toHaveBeenCalledWith({ queryKey: [url] });
    }
    expect(toast).not.toHaveBeenCalled();
  });
});
