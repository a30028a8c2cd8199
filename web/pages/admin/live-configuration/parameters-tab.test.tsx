import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast.ts';
import { json } from '@/test/render.tsx';
import { DEFAULT_BOT_PARAMETERS } from '../../../../common/configuration.ts';
import { botConfiguration, bots } from './live-configuration.fixtures.ts';
import {
  expectToast,
  failPosts,
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

const BULK = 'POST /api/admin/configurations/bulk-update';
const ok = (successful: number, changeId = 'c-1') =>
  json({ result: { successful, changeId, sent: successful } });

async function openParameters(...args: Parameters<typeof renderLiveConfiguration>) {
  const user = userEvent.setup();
  const rendered = renderLiveConfiguration(...args);
  await user.click(await screen.findByRole('tab', { name: 'Parameters' }));
  await screen.findByRole('group', { name: 'Hop Timing' });
  return { user, ...rendered };
}

const updatesSent = (sent: Array<{ body: unknown }>) =>
  sent.map((p) => (p.body as { updates: unknown }).updates);
const checkbox = (botId: string) => screen.getByRole('checkbox', { name: new RegExp(`^${botId}\\b`) });
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function setField(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  await user.clear(field(label));
  if (value) await user.type(field(label), value);
}

resetBetweenTests();

describe('Parameters tab', () => {
  it('selects bots in a 5-column grid with Select All and Clear', async () => {
    const { user } = await openParameters();
    const grid = screen.getByRole('group', { name: 'Bots to update' });
    expect(grid.className).toContain('md:grid-cols-5');
    expect(within(grid).getAllByRole('checkbox')).toHaveLength(12);
    expect(screen.getByText('0 selected')).toBeTruthy();

    await user.click(checkbox('ghost-03'));
    expect(screen.getByText('1 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByText('12 selected')).toBeTruthy();
    await user.click(checkbox('ghost-03'));
    expect(screen.getByText('11 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByText('0 selected')).toBeTruthy();
  });

  it("refuses Apply Changes with no bot selected: 'No Bots Selected'", async () => {
    const { user, sent } = await openParameters({}, { [BULK]: () => ok(1) });
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    expect(toast).toHaveBeenCalledWith({
      title: 'No Bots Selected',
      description: 'Please select at least one bot to update',
      variant: 'destructive',
    });
    expect(sent).toEqual([]);
  });

  it("shows the selected bot's current values, not the defaults, and sends only the parameter changed", async () => {
    const configurations = bots(12);
    configurations[1] = botConfiguration(2, {
      hopFrequencyMs: 15_000,
      stealthMode: true,
      batchSize: 20,
      profileId: 'p-stealth',
      profileName: 'STEALTH',
    });
    const { user, sent } = await openParameters({ configurations }, { [BULK]: () => ok(1) });
    // Nothing selected: the spec's defaults, and the form says so.
    expect(field('Hop Frequency (ms)').value).toBe('5000');
    expect(screen.getByText('No bot selected: the form shows the default parameters.')).toBeTruthy();

    await user.click(checkbox('ghost-02'));
    expect(field('Hop Frequency (ms)').value).toBe('15000');
    expect(field('Batch Size').value).toBe('20');
    expect(screen.getByRole('switch', { name: 'Stealth Mode' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText(/^Showing the current values of ghost-02\./)).toBeTruthy();
    expect(screen.getByText('No parameter changed')).toBeTruthy();

    await setField(user, 'Batch Size', '80');
    expect(screen.getByText('1 parameter changed')).toBeTruthy();
    await user.type(screen.getByLabelText('Reason (optional)'), '  Bigger batches  ');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      path: '/api/admin/configurations/bulk-update',
      body: {
        targetBotIds: ['ghost-02'],
        updates: { batchSize: 80 },
        reason: 'Bigger batches',
        isEmergencyUpdate: false,
      },
    });
  });

  it('shows values the selected bots differ on as Mixed, keeps them unless edited, and sends only the edits', async () => {
    const configurations = bots(12);
    configurations[1] = botConfiguration(2, { hopFrequencyMs: 15_000, stealthMode: true });
    configurations[2] = botConfiguration(3, { hopFrequencyMs: 8000 });
    const { user, sent } = await openParameters({ configurations }, { [BULK]: () => ok(3) });
    for (const botId of ['ghost-01', 'ghost-02', 'ghost-03']) await user.click(checkbox(botId));
    expect(screen.getByText(/^Showing the current values of 3 bots\./)).toBeTruthy();
    expect(field('Hop Frequency (ms)').value).toBe('');
    expect(field('Hop Frequency (ms)').placeholder).toBe('Mixed');
    expect(screen.getByText('Mixed: 5000–15000. Each bot keeps its value unless you type one.')).toBeTruthy();
    const stealth = screen.getByRole('switch', { name: 'Stealth Mode' });
    expect(stealth.getAttribute('aria-checked')).toBe('mixed');
    expect(
      screen.getByText('Mixed: on for 1 of 3. Each bot keeps its setting unless you switch it.'),
    ).toBeTruthy();
    // Shared values show as they are.
    expect(field('Batch Size').value).toBe('50');

    await setField(user, 'Rate Limit (requests/min)', '250');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(updatesSent(sent)).toEqual([{ rateLimit: 250 }]);

    // Turning stealth on for all three is a change too.
    await user.click(stealth);
    expect(stealth.getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(updatesSent(sent)[1]).toMatchObject({ stealthMode: true });
  });

  it("keeps the admin's edits when the selection changes; the untouched fields follow the selection", async () => {
    const configurations = bots(12);
    configurations[1] = botConfiguration(2, { hopFrequencyMs: 15_000, batchSize: 20 });
    const { user } = await openParameters({ configurations });
    await user.click(checkbox('ghost-01'));
    await setField(user, 'Connection Limit', '30');
    await user.click(checkbox('ghost-01'));
    await user.click(checkbox('ghost-02'));
    expect(field('Hop Frequency (ms)').value).toBe('15000');
    expect(field('Batch Size').value).toBe('20');
    expect(field('Connection Limit').value).toBe('30');
    await user.click(screen.getByRole('button', { name: 'Discard Changes' }));
    expect(field('Connection Limit').value).toBe('10');
  });

  it("sends nothing when no parameter changed: 'No Changes'", async () => {
    const { user, sent } = await openParameters({}, { [BULK]: () => ok(1) });
    await user.click(checkbox('ghost-01'));
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await expectToast('No Changes', 'Change at least one parameter before applying');
    expect(sent).toEqual([]);
  });

  it('moves the hop timings with sliders in the spec steps', async () => {
    await openParameters();
    const slider = screen.getByRole('slider', { name: 'Hop Cooldown (ms) slider' }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step]).toEqual(['5000', '300000', '5000']);
    expect(screen.getByRole('slider', { name: 'Hop Frequency (ms) slider' }).getAttribute('step')).toBe(
      '500',
    );
    expect(screen.getByRole('slider', { name: 'Hop Delay (ms) slider' }).getAttribute('step')).toBe('100');
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.change(slider, { target: { value: '60000' } });
    expect(field('Hop Cooldown (ms)').value).toBe('60000');
  });

  it.each([
    ['Hop Frequency (ms)', '500', 'Hop Frequency (ms) must be from 1000 to 30000'],
    ['Hop Delay (ms)', '5001', 'Hop Delay (ms) must be from 100 to 5000'],
    ['Hop Cooldown (ms)', '4000', 'Hop Cooldown (ms) must be from 5000 to 300000'],
    ['Max Retry Attempts', '11', 'Max Retry Attempts must be from 1 to 10'],
    ['Error Threshold', '0', 'Error Threshold must be from 1 to 20'],
    ['Batch Size', '201', 'Batch Size must be from 1 to 200'],
    ['Connection Limit', '51', 'Connection Limit must be from 1 to 50'],
    ['Rate Limit (requests/min)', '9', 'Rate Limit (requests/min) must be from 10 to 1000'],
    ['Min Pet Value', '-1', 'Min Pet Value must be from 0 to 1000000000000'],
    ['Batch Size', '', 'Batch Size must be a whole number from 1 to 200'],
  ])(
    'refuses %s = %j in the form, naming the field and its range, and sends nothing',
    async (label, value, message) => {
      const { user, sent } = await openParameters({}, { [BULK]: () => ok(1) });
      await user.click(checkbox('ghost-01'));
      await setField(user, label, value);
      await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
      expect(await screen.findByText(message)).toBeTruthy();
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(sent).toEqual([]);
      expect(toast).not.toHaveBeenCalled();
    },
  );

  it('refuses a maximum pet value below the minimum, but takes 0 as unlimited', async () => {
    const { user, sent } = await openParameters({}, { [BULK]: () => ok(1) });
    await user.click(checkbox('ghost-01'));
    await setField(user, 'Max Pet Value', '1000');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    expect(await screen.findByText('maxPetValue must be 0 (unlimited) or at least minPetValue')).toBeTruthy();
    expect(sent).toEqual([]);

    await setField(user, 'Max Pet Value', '0');
    expect(screen.getByText('0 = unlimited')).toBeTruthy();
    await setField(user, 'Max Pet Value', '2000000');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await waitFor(() => expect(sent).toHaveLength(1));
  });

  it("says 'Bulk Update Failed' with the server's message, or the spec's text when none came", async () => {
    const { user } = await openParameters(
      {},
      { [BULK]: () => json({ error: 'Unknown bots: ghost-01' }, 404) },
    );
    await user.click(checkbox('ghost-01'));
    await setField(user, 'Batch Size', '80');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await expectToast('Bulk Update Failed', 'Unknown bots: ghost-01', 'destructive');
  });

  it("falls back to 'Failed to update configurations' when the call never answers", async () => {
    const { user } = await openParameters(
      {},
      { [BULK]: () => Promise.reject(new TypeError('Failed to fetch')) },
    );
    await user.click(checkbox('ghost-01'));
    await setField(user, 'Batch Size', '80');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await expectToast('Bulk Update Failed', 'Failed to update configurations', 'destructive');
  });

  it('lists the first 10 configurations with status, version, deployment, profile and last deployed', async () => {
    const configurations = bots(12);
    configurations[0] = botConfiguration(1, { version: 3, profileName: 'STEALTH' });
    configurations[1] = botConfiguration(2, {
      isActive: false,
      deployState: 'failed',
      deployError: 'no acknowledgement',
      lastDeployed: null,
    });
    configurations[2] = botConfiguration(3, { deployState: 'pending' });
    await openParameters({ configurations });
    expect(screen.getByText('Showing 10 of 12 bot configurations')).toBeTruthy();
    expect(screen.getByTestId('configuration-ghost-10')).toBeTruthy();
    expect(screen.queryByTestId('configuration-ghost-11')).toBeNull();

    const first = within(screen.getByTestId('configuration-ghost-01'));
    expect(first.getByText('Active')).toBeTruthy();
    expect(first.getByText('v3')).toBeTruthy();
    expect(first.getByText('applied')).toBeTruthy();
    expect(first.getByText('STEALTH')).toBeTruthy();
    const second = within(screen.getByTestId('configuration-ghost-02'));
    expect(second.getByText('Inactive')).toBeTruthy();
    expect(second.getByText('failed')).toBeTruthy();
    expect(second.getByText('no acknowledgement')).toBeTruthy();
    expect(second.getByText('Never')).toBeTruthy();
    expect(within(screen.getByTestId('configuration-ghost-03')).getByText('pending')).toBeTruthy();
  });

  it("says 'No configurations available' before any bot has said hello", async () => {
    const user = userEvent.setup();
    renderLiveConfiguration({ configurations: [] });
    await user.click(await screen.findByRole('tab', { name: 'Parameters' }));
    expect(await screen.findByText('No configurations available')).toBeTruthy();
  });

  it("Edit loads a bot's values into the form and selects that bot alone", async () => {
    const configurations = bots(12);
    configurations[4] = botConfiguration(5, { hopFrequencyMs: 12_000, stealthMode: true });
    const { user } = await openParameters({ configurations });
    await user.click(checkbox('ghost-01'));
    await user.click(screen.getByRole('button', { name: 'Edit ghost-05' }));
    expect(field('Hop Frequency (ms)').value).toBe('12000');
    expect(screen.getByRole('switch', { name: 'Stealth Mode' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('1 selected')).toBeTruthy();
    expect((checkbox('ghost-05') as HTMLInputElement).checked).toBe(true);
    expect((checkbox('ghost-01') as HTMLInputElement).checked).toBe(false);
  });

  it('resets one bot to the defaults after confirmation; its failure is the singular Update Failed', async () => {
    const { user, sent, fetchMock } = await openParameters({}, { [BULK]: () => ok(1) });
    await user.click(screen.getByRole('button', { name: 'Reset ghost-04 to defaults' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reset to Defaults' }),
    );
    await expectToast('Configuration Updated', 'ghost-04 reset to the default parameters');
    expect(sent).toEqual([
      {
        path: '/api/admin/configurations/bulk-update',
        body: {
          targetBotIds: ['ghost-04'],
          updates: DEFAULT_BOT_PARAMETERS,
          reason: 'Reset to the default parameters',
          isEmergencyUpdate: false,
        },
      },
    ]);

    failPosts(fetchMock);
    await user.click(screen.getByRole('button', { name: 'Reset ghost-04 to defaults' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reset to Defaults' }),
    );
    await expectToast('Update Failed', 'Failed to update configuration', 'destructive');
  });

  it('does not toast its own push again when the socket echoes it, but toasts one from elsewhere', async () => {
    const { user } = await openParameters({}, { [BULK]: () => ok(1, 'c-own') });
    socket().open();
    await user.click(checkbox('ghost-01'));
    await setField(user, 'Batch Size', '80');
    await user.click(screen.getByRole('button', { name: 'Apply Changes' }));
    await waitFor(() => expect(toast).toHaveBeenCalledTimes(1));
    socket().receive('configuration_update', { targetedBots: 1, changeId: 'c-own', reason: '' });
    socket().receive('configuration_update', { targetedBots: 4, changeId: 'c-other', reason: '' });
    await waitFor(() =>
      expect(toast).toHaveBeenLastCalledWith({
        title: 'Configuration Updated',
        description: 'Configuration pushed to 4 bots',
      }),
    );
    expect(toast).toHaveBeenCalledTimes(2);
  });
});
