import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast, updateToast } from '@/lib/toast.ts';
import { json } from '@/test/render.tsx';
import { change } from './live-configuration.fixtures.ts';
import {
  expectToast,
  renderLiveConfiguration,
  resetBetweenTests,
  socket,
} from './live-configuration.test-utils.tsx';

vi.mock('@/lib/toast.ts', () => ({
  toast: vi.fn(() => ({ id: '1', dismiss: () => {} })),
  updateToast: vi.fn(() => true),
  dismissToast: vi.fn(),
  useToasts: () => [],
}));

const APPLY_BALANCED = 'POST /api/admin/configuration-profiles/p-balanced/apply';
const ROLLBACK = 'POST /api/admin/configurations/history/c-1/rollback';
const result = (successful: number) => json({ result: { successful, changeId: 'c-new', sent: successful } });
/** The push's toast as first shown: open until the bots have answered. */
const expectPushToast = (title: string, description: string) =>
  waitFor(() =>
    expect(toast).toHaveBeenCalledWith({ title, description, variant: 'default', duration: Infinity }),
  );
/** The same toast, moved by the acknowledgements. */
const expectToastUpdate = (title: string, description: string) =>
  waitFor(() =>
    expect(updateToast).toHaveBeenLastCalledWith('1', {
      title,
      description,
      variant: 'default',
      duration: 5000,
    }),
  );
/** The bots of change c-new all applied it. */
const acknowledge = (bots: number) =>
  socket().receive('configuration_progress', {
    changeId: 'c-new',
    counts: { pending: 0, applied: bots, failed: 0 },
    unanswered: 0,
  });
const profileCard = (name: string) => within(screen.getByRole('group', { name: `Profile ${name}` }));

resetBetweenTests();

describe('Profiles tab', () => {
  it('shows each profile with its type, built-in badge, values and usage, and the usage ranking', async () => {
    const user = userEvent.setup();
    renderLiveConfiguration();
    await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
    const stealth = await screen.findByRole('group', { name: 'Profile STEALTH' });
    expect(within(stealth).getByText('Built-in')).toBeTruthy();
    expect(within(stealth).getByText('STEALTH scanning')).toBeTruthy();
    expect(within(stealth).getByText('15,000')).toBeTruthy();
    expect(within(stealth).getByText('On')).toBeTruthy();
    expect(within(stealth).getByText('20')).toBeTruthy();
    expect(profileCard('AGGRESSIVE').getByText('Applied 4 times')).toBeTruthy();

    const ranking = within(screen.getByRole('group', { name: 'Profile Usage' }));
    expect(ranking.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '1.AGGRESSIVE4 uses',
      '2.STEALTH1 use',
    ]);
  });

  it("refuses Apply to Selected with no bot selected: 'No Bots Selected'", async () => {
    const user = userEvent.setup();
    const { sent } = renderLiveConfiguration({}, { [APPLY_BALANCED]: () => result(1) });
    await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
    await user.click((await screen.findAllByRole('button', { name: 'Apply to Selected' }))[2]!);
    expect(toast).toHaveBeenCalledWith({
      title: 'No Bots Selected',
      description: 'Please select at least one bot to apply profile',
      variant: 'destructive',
    });
    expect(sent).toEqual([]);
  });

  it('applies a profile to the bots selected on the Parameters tab and says how many', async () => {
    const user = userEvent.setup();
    const { sent } = renderLiveConfiguration({}, { [APPLY_BALANCED]: () => result(2) });
    socket().open();
    await user.click(await screen.findByRole('tab', { name: 'Parameters' }));
    await user.click(await screen.findByRole('checkbox', { name: /^ghost-02\b/ }));
    await user.click(screen.getByRole('checkbox', { name: /^ghost-07\b/ }));
    await user.click(screen.getByRole('tab', { name: 'Profiles' }));
    expect(await screen.findByText('2 bots selected on the Parameters tab')).toBeTruthy();
    await user.type(screen.getByLabelText('Reason (optional)'), 'Night shift');
    await user.click(profileCard('BALANCED').getByRole('button', { name: 'Apply to Selected' }));

    // Sent at once; applied once the bots acknowledge it.
    await expectPushToast('Profile Sent', 'Sent to 2 bots: 0 applied, 2 waiting');
    acknowledge(2);
    await expectToastUpdate('Profile Applied Successfully', 'BALANCED applied to 2 bots');
    expect(sent).toEqual([
      {
        path: '/api/admin/configuration-profiles/p-balanced/apply',
        body: { targetBotIds: ['ghost-02', 'ghost-07'], reason: 'Night shift' },
      },
    ]);
  });

  it("says 'Profile Application Failed' with the server's message, or the spec's text", async () => {
    const user = userEvent.setup();
    let answer = () => json({ error: 'Unknown profile' }, 404);
    renderLiveConfiguration({}, { [APPLY_BALANCED]: () => answer() });
    await user.click(await screen.findByRole('tab', { name: 'Parameters' }));
    await user.click(await screen.findByRole('button', { name: 'Select All' }));
    await user.click(screen.getByRole('tab', { name: 'Profiles' }));
    const apply = async () =>
      user.click(await profileCard('BALANCED').findByRole('button', { name: 'Apply to Selected' }));
    await apply();
    await expectToast('Profile Application Failed', 'Unknown profile', 'destructive');
    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await apply();
    await waitFor(() =>
      expect(toast).toHaveBeenLastCalledWith({
        title: 'Profile Application Failed',
        description: 'Failed to apply profile',
        variant: 'destructive',
      }),
    );
  });

  it("says 'No profiles available' when there are none", async () => {
    const user = userEvent.setup();
    renderLiveConfiguration({ profiles: [] });
    await user.click(await screen.findByRole('tab', { name: 'Profiles' }));
    expect(await screen.findByText('No profiles available')).toBeTruthy();
  });
});

describe('History tab', () => {
  it('lists each change with kind, time, actor, reason, badges and counts, and its bots on demand', async () => {
    const user = userEvent.setup();
    renderLiveConfiguration({
      changes: [
        change('c-2', {
          kind: 'emergency_stop',
          isEmergency: true,
          reason: '',
          targets: [],
          counts: { pending: 0, applied: 0, failed: 0 },
          canRollback: false,
        }),
        change('c-1', { kind: 'profile', profileName: 'STEALTH' }),
      ],
    });
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    const stop = within(await screen.findByTestId('change-c-2'));
    expect(stop.getByText('Emergency stop')).toBeTruthy();
    expect(stop.getByText('Emergency')).toBeTruthy();
    expect(stop.getByText('No reason given')).toBeTruthy();
    expect(stop.queryByRole('button', { name: 'Roll back' })).toBeNull();

    const applied = within(screen.getByTestId('change-c-1'));
    expect(applied.getByText('Profile applied')).toBeTruthy();
    expect(applied.getByText('STEALTH')).toBeTruthy();
    expect(applied.getByText('Faster hops')).toBeTruthy();
    expect(applied.getByText('By admin 127.0.0.1 · 2 bots')).toBeTruthy();
    expect(applied.getByText('1 applied')).toBeTruthy();
    expect(applied.getByText('1 failed')).toBeTruthy();
    expect(applied.getByText('0 pending')).toBeTruthy();
    expect(applied.queryByText('ghost-01')).toBeNull();

    await user.click(applied.getByRole('button', { name: /^Show bots of profile applied/ }));
    const bots = within(applied.getByRole('table', { name: 'Bots of change c-1' }));
    const first = within(bots.getByText('ghost-01').closest('tr') as HTMLElement);
    expect(first.getByText('Hop Frequency (ms): 5,000 → 3,000')).toBeTruthy();
    // Values sent as they were are counted, not listed.
    expect(first.getByText('2 more unchanged')).toBeTruthy();
    expect(first.queryByText(/Batch Size/)).toBeNull();
    expect(first.getByText('applied')).toBeTruthy();
    expect(first.getByText('85 ms')).toBeTruthy();
    const second = within(bots.getByText('ghost-02').closest('tr') as HTMLElement);
    expect(second.getByText('failed')).toBeTruthy();
    expect(second.getByText('no acknowledgement')).toBeTruthy();
  });

  it("counts a change to one bot as '1 bot', and its rollback as the bot's", async () => {
    const user = userEvent.setup();
    const one = change('c-1');
    renderLiveConfiguration({ changes: [{ ...one, targets: one.targets.slice(0, 1) }] });
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    expect(await screen.findByText('By admin 127.0.0.1 · 1 bot')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Roll back this change?' }));
    expect(
      dialog.getByText('The bot it changed gets its earlier values back, as a new change.'),
    ).toBeTruthy();
  });

  it('rolls a change back only after a reason is given and confirmed', async () => {
    const user = userEvent.setup();
    const { sent } = renderLiveConfiguration({ changes: [change('c-1')] }, { [ROLLBACK]: () => result(2) });
    socket().open();
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    await user.click(await screen.findByRole('button', { name: 'Roll back' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Roll back this change?' }));
    const confirm = dialog.getByRole('button', { name: 'Roll Back' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.type(dialog.getByLabelText('Reason'), '   ');
    expect(confirm.disabled).toBe(true);
    await user.type(dialog.getByLabelText('Reason'), 'Failures went up');
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);

    await expectPushToast('Rollback Sent', 'Sent to 2 bots: 0 applied, 2 waiting');
    acknowledge(2);
    await expectToastUpdate('Change Rolled Back', 'Earlier values restored on 2 bots');
    expect(sent).toEqual([
      { path: '/api/admin/configurations/history/c-1/rollback', body: { reason: 'Failures went up' } },
    ]);
  });

  it('cancelling the rollback sends nothing; a refused rollback says why', async () => {
    const user = userEvent.setup();
    const { sent } = renderLiveConfiguration(
      { changes: [change('c-1')] },
      { [ROLLBACK]: () => json({ error: 'Emergency changes cannot be rolled back' }, 409) },
    );
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    await user.click(await screen.findByRole('button', { name: 'Roll back' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    await user.type(dialog.getByLabelText('Reason'), 'Undo');
    await user.click(dialog.getByRole('button', { name: 'Roll Back' }));
    await expectToast('Rollback Failed', 'Emergency changes cannot be rolled back', 'destructive');
  });

  it('says when there is no change yet', async () => {
    const user = userEvent.setup();
    renderLiveConfiguration({ changes: [] });
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    expect(await screen.findByText('No configuration changes yet')).toBeTruthy();
  });
});
