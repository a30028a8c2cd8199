import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '@/lib/toast.ts';
import { FakeWebSocket } from '@/test/fake-websocket.ts';
import { json } from '@/test/render.tsx';
import type { ConfigurationChange, TargetState } from '../../../../common/configuration.ts';
import { bots, change } from './live-configuration.fixtures.ts';
import { type FakeState, renderLiveConfiguration, socket } from './live-configuration.test-utils.tsx';

/*
 * The push toast with the real toaster: what the admin reads while the bots acknowledge a push.
 */

const BULK = 'POST /api/admin/configurations/bulk-update';

beforeEach(() => {
  FakeWebSocket.instances = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
  // Toasts are the app's, not the test's: the next test starts with none open.
  dismissToast();
});

/** The toast on screen (the toaster's one visible item) once it says `text`. */
async function toastSays(text: string): Promise<HTMLElement> {
  return vi.waitFor(() => {
    const shown = [...document.querySelectorAll<HTMLElement>('li[data-swipe-direction][data-state="open"]')];
    const toast = shown.find((li) => li.textContent?.includes(text));
    if (!toast)
      throw new Error(`no toast says ${text}; shown: ${shown.map((li) => li.textContent).join(' | ')}`);
    return toast;
  });
}

/** A change record whose targets stand as given. */
function record(id: string, states: Array<[string, TargetState, string | null]>): ConfigurationChange {
  const base = change(id).targets[0];
  if (!base) throw new Error('fixture without targets');
  const counts = { pending: 0, applied: 0, failed: 0 };
  for (const [, state] of states) counts[state]++;
  return {
    ...change(id),
    targets: states.map(([botId, state, error]) => ({ ...base, botId, state, error })),
    counts,
  };
}

async function pushBatchSize(
  state: FakeState,
  answer: () => Response | Promise<Response>,
  botIds: string[] | 'all',
) {
  const user = userEvent.setup();
  renderLiveConfiguration(state, { [BULK]: answer });
  socket().open();
  await user.click(await screen.findByRole('tab', { name: 'Parameters' }));
  if (botIds === 'all') await user.click(await screen.findByRole('button', { name: 'Select All' }));
  else {
    for (const botId of botIds) {
      await user.click(await screen.findByRole('checkbox', { name: new RegExp(`^${botId}\\b`) }));
    }
  }
  const batch = screen.getByLabelText('Batch Size');
  await user.clear(batch);
  await user.type(batch, '80');
  await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
}

const ALL = bots(12).map((c) => c.botId);

// Typing into the page is slow on a shared machine.
describe('a push toast follows the acknowledgements', { timeout: 20_000 }, () => {
  it('says it was sent, then counts applied / failed / no answer, and ends naming the failed bots', async () => {
    const state: FakeState = { configurations: bots(12), changes: [] };
    await pushBatchSize(state, () => json({ result: { successful: 12, sent: 12, changeId: 'c-7' } }), 'all');

    // At once: sent, nobody has answered yet. Not "successful".
    const toast = await toastSays('Bulk Update Sent');
    expect(toast.textContent).toContain('Sent to 12 bots: 0 applied, 12 waiting');
    expect(toast.textContent).not.toContain('Successful');

    socket().receive('configuration_progress', {
      changeId: 'c-7',
      counts: { pending: 2, applied: 9, failed: 1 },
      unanswered: 0,
    });
    await toastSays('Sent to 12 bots: 9 applied, 1 failed, 2 waiting');

    // Past the deadline the last two count as not answered; the record names them.
    state.changes = [
      record('c-7', [
        ...ALL.slice(0, 9).map((id): [string, TargetState, null] => [id, 'applied', null]),
        ['ghost-10', 'failed', 'hop loop busy'],
        ['ghost-11', 'failed', 'no acknowledgement'],
        ['ghost-12', 'failed', 'no acknowledgement'],
      ]),
    ];
    socket().receive('configuration_progress', {
      changeId: 'c-7',
      counts: { pending: 0, applied: 9, failed: 3 },
      unanswered: 2,
    });
    await toastSays('Bulk Update Incomplete');
    await toastSays(
      '9 of 12 bots applied it; 1 refused it (ghost-10), 2 did not answer (ghost-11, ghost-12).',
    );
    // The screen keeps the outcome after the toast has gone.
    const latest = await screen.findByRole('region', { name: 'Latest push' });
    for (const text of ['9 applied', '1 refused', '2 no answer', 'of 12']) {
      expect(within(latest).getByText(text)).toBeTruthy();
    }
  });

  it("ends with the spec's 'Bulk Update Successful' when every bot applied it, in the right number", async () => {
    const state: FakeState = { configurations: bots(12) };
    await pushBatchSize(state, () => json({ result: { successful: 1, sent: 1, changeId: 'c-8' } }), [
      'ghost-03',
    ]);
    await toastSays('Sent to 1 bot: 0 applied, 1 waiting');
    socket().receive('configuration_progress', {
      changeId: 'c-8',
      counts: { pending: 0, applied: 1, failed: 0 },
      unanswered: 0,
    });
    const toast = await toastSays('Bulk Update Successful');
    await toastSays('Updated 1 configuration');
    expect(toast.textContent).not.toContain('configurations');
  });

  it('takes acknowledgements that arrive before the answer, and says offline bots get it later', async () => {
    let answer: (response: Response) => void = () => {};
    const state: FakeState = { configurations: bots(12) };
    await pushBatchSize(state, () => new Promise<Response>((resolve) => (answer = resolve)), [
      'ghost-01',
      'ghost-02',
      'ghost-03',
    ]);
    // The bots answer faster than the call returns.
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Apply Changes' })).toHaveProperty('disabled', true),
    );
    socket().receive('configuration_progress', {
      changeId: 'c-9',
      counts: { pending: 1, applied: 2, failed: 0 },
      unanswered: 0,
    });
    answer(json({ result: { successful: 3, sent: 2, changeId: 'c-9' } }));
    const toast = await toastSays('Bulk Update Successful');
    expect(toast.textContent).toContain(
      'Updated 2 configurations. 1 offline bot gets it when it reconnects.',
    );
  });
});
