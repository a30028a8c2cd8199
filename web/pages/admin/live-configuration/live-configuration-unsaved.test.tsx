import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderLiveConfiguration, resetBetweenTests } from './live-configuration.test-utils.tsx';

vi.mock('@/lib/toast.ts', () => ({
  toast: vi.fn(() => ({ id: '1', dismiss: () => {} })),
  updateToast: vi.fn(() => true),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));

resetBetweenTests();

async function openParameters() {
  const user = userEvent.setup();
  const rendered = renderLiveConfiguration();
  await user.click(await screen.findByRole('tab', { name: 'Parameters' }));
  await screen.findByRole('group', { name: 'Hop Timing' });
  return { user, ...rendered };
}

const currentPath = () => screen.getByTestId('current-path').textContent;
const batchSize = () => screen.getByLabelText('Batch Size') as HTMLInputElement;

describe('Live Configuration: parameters not applied', () => {
  it('leaves freely while no parameter is changed', async () => {
    const { router } = await openParameters();
    await act(() => router.navigate('/admin/dashboard'));
    await waitFor(() => expect(currentPath()).toBe('/admin/dashboard'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("asks 'Leave without saving?' before leaving a changed parameter; Stay keeps it, on any tab", async () => {
    const { user, router } = await openParameters();
    await user.clear(batchSize());
    await user.type(batchSize(), '80');
    // A look at another tab keeps the form (the page holds it) and does not ask.
    await user.click(screen.getByRole('tab', { name: 'History' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await act(() => router.navigate('/admin/dashboard'));
    const question = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(currentPath()).toBe('/admin/configuration');
    await user.click(screen.getByRole('tab', { name: 'Parameters' }));
    expect(batchSize().value).toBe('80');
  });
});
