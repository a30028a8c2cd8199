import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HopStats, type PetDiscovery, successTrend } from '../../../../common/fleet.ts';
import { fleetChartColumns } from './fleet-chart-data.ts';
import { hop } from './fleet-feed.fixtures.ts';
import { type LiveEvent, liveEventOfDiscovery, liveEventOfHop } from './fleet-feed.ts';
import { HopTimeline } from './hop-timeline.tsx';
import {
  HopReasonsCard,
  HopStatCards,
  LiveActivityTab,
  LiveEventsCard,
  SuccessTrendsCard,
} from './live-activity-tab.tsx';
import { LiveEventFeed } from './live-event-feed.tsx';

const T = '2026-11-23T10:00:00.000Z';

function pet(seq: number, over: Partial<PetDiscovery> = {}): PetDiscovery {
  return {
    id: `pet-${seq}`,
    seq,
    name: 'Golden Dragon',
    type: 'Dragon',
    value: '$6M/s',
    numericValue: 6_000_000,
    count: 1,
    timestamp: T,
    placeid: '100',
    jobid: 'job-1',
    botId: '3',
    scannerId: 'scanner-3',
    ...over,
  } as PetDiscovery;
}

function stats(over: Partial<HopStats> = {}): HopStats {
  return {
    totalHops: 10,
    successfulHops: 8,
    failedHops: 2,
    averageLatency: 150.4,
    hopsByReason: { manual: 1, auto_scan: 6, server_full: 2, error_recovery: 1, performance: 0 },
    topHoppers: [],
    successRate15m: 90,
    successRate30m: 80,
    trend: 'Improving',
    lastHour: [],
    keptDays: 7,
    ...over,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('hop stat cards, reasons and trends', () => {
  it('shows the four hop figures', () => {
    render(<HopStatCards stats={stats()} />);
    expect(within(screen.getByRole('group', { name: 'Total Hops' })).getByText('10')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Success Rate' })).getByText('80.0%')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Avg Latency' })).getByText('150ms')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Failed Hops' })).getByText('2')).toBeTruthy();
  });

  it('says Total Hops covers the days the server keeps, not since it started (it survives restarts)', () => {
    render(<HopStatCards stats={stats({ keptDays: 7 })} />);
    const total = screen.getByRole('group', { name: 'Total Hops' });
    expect(within(total).getByText('Last 7 days')).toBeTruthy();
    expect(within(total).queryByText('Since the server started')).toBeNull();
  });

  it('shows each reason with its count and share', () => {
    render(<HopReasonsCard stats={stats()} />);
    expect(within(screen.getByRole('listitem', { name: 'Auto Scan' })).getByText('6 (60.0%)')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Performance' })).getByText('0 (0.0%)')).toBeTruthy();
  });

  it('badges Improving when the 15-minute rate is at least the 30-minute rate, else Declining; none without hops', () => {
    expect(successTrend(80, 80)).toBe('Improving');
    expect(successTrend(81, 80)).toBe('Improving');
    expect(successTrend(79, 80)).toBe('Declining');
    expect(successTrend(null, 80)).toBeNull();
    expect(successTrend(null, null)).toBeNull();
  });

  it("shows the two rates and the server's trend badge", () => {
    const { rerender } = render(
      <SuccessTrendsCard stats={stats({ successRate15m: 70, successRate30m: 75, trend: 'Declining' })} />,
    );
    expect(screen.getByText('Declining')).toBeTruthy();
    expect(screen.getByText('70.0%')).toBeTruthy();
    rerender(
      <SuccessTrendsCard stats={stats({ successRate15m: 75, successRate30m: 75, trend: 'Improving' })} />,
    );
    expect(screen.getByText('Improving')).toBeTruthy();
    rerender(
      <SuccessTrendsCard stats={stats({ successRate15m: null, successRate30m: null, trend: null })} />,
    );
    expect(screen.getByText('No data')).toBeTruthy();
    expect(screen.getAllByText('No hops')).toHaveLength(2);
  });
});

describe('Live Event Feed', () => {
  const events: LiveEvent[] = [
    liveEventOfHop(hop(3, { success: false, errorMessage: 'Server full', botId: '9' })),
    liveEventOfDiscovery(pet(2)),
    liveEventOfHop(hop(1)),
  ];

  it('shows every event with the spec footer', () => {
    render(<LiveEventFeed events={events} totals={{ events: 40, hops: 25 }} />);
    expect(screen.getByText('Showing 3 of 3 events')).toBeTruthy();
    expect(screen.getByText('Total: 40 events | Hops: 25')).toBeTruthy();
    // Not the Total Hops card's figure (every hop kept): labelled as what it counts.
    expect(screen.getByText('Total: 40 events | Hops: 25').parentElement?.textContent).toBe(
      'Received by this page: Total: 40 events | Hops: 25',
    );
    expect(screen.getByText('Bot 9 failed to hop: Server full')).toBeTruthy();
    expect(screen.getByText('Bot 3 found Golden Dragon ($6M/s)')).toBeTruthy();
  });

  it('narrows by severity and type, and says when nothing matches', async () => {
    const user = userEvent.setup();
    render(<LiveEventFeed events={events} totals={{ events: 3, hops: 2 }} />);
    await user.click(screen.getByRole('combobox', { name: 'Filter events by severity' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Levels',
      'Success',
      'Info',
      'Warning',
      'Error',
    ]);
    await user.click(screen.getByRole('option', { name: 'Warning' }));
    expect(screen.getByText('Showing 1 of 3 events')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Filter events by type' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Types',
      'Server Hops',
      'Pet Discoveries',
      'Scanner Activity',
      'Network Alerts',
    ]);
    await user.click(screen.getByRole('option', { name: 'Pet Discoveries' }));
    expect(screen.getByText('No events match the current filters.')).toBeTruthy();
    expect(screen.getByText('Showing 0 of 3 events')).toBeTruthy();
  });

  it('applies the search only once typing has paused for 300 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<LiveEventFeed events={events} totals={{ events: 3, hops: 2 }} />);
    await user.type(screen.getByRole('textbox', { name: 'Search events' }), 'dragon');
    act(() => vi.advanceTimersByTime(250));
    expect(screen.getByText('Showing 3 of 3 events')).toBeTruthy();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByText('Showing 1 of 3 events')).toBeTruthy();
  });

  it('collapses and expands', async () => {
    const user = userEvent.setup();
    render(<LiveEventFeed events={events} totals={{ events: 3, hops: 2 }} />);
    await user.click(screen.getByRole('button', { name: 'Collapse feed' }));
    expect(screen.queryByText('Showing 3 of 3 events')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Expand feed' }));
    expect(screen.getByText('Showing 3 of 3 events')).toBeTruthy();
  });

  it('renders only a window of a long feed (virtualized)', () => {
    const many = Array.from({ length: 1000 }, (_, i) => liveEventOfHop(hop(1000 - i, { botId: `b${i}` })));
    render(<LiveEventFeed events={many} totals={{ events: 1000, hops: 1000 }} />);
    expect(screen.getByText('Showing 1000 of 1000 events')).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Live Event Feed' })).getAllByRole('listitem');
    // 500 px at 120 px a row is 5 rows, plus 5 of overscan.
    expect(rows.length).toBeLessThanOrEqual(10);
    expect(rows.length).toBeGreaterThan(0);
    expect(screen.getByText('Bot b0 successfully hopped to new server (120ms)')).toBeTruthy();
  });
});

describe('Server Hop Timeline', () => {
  const hops = [
    hop(3, {
      success: false,
      botId: '12',
      hopReason: 'server_full',
      errorMessage: 'Server is full',
      attemptNumber: 3,
      totalServersAttempted: 5,
    }),
    hop(2, { botId: '7', hopReason: 'manual' }),
    hop(1, { botId: '8' }),
  ];

  it('shows a row with short job ids, place transition, error and attempt text', () => {
    render(<HopTimeline hops={hops} />);
    const row = screen.getByRole('listitem', { name: 'Hop by bot 12' });
    expect(within(row).getByText('Bot 12')).toBeTruthy();
    expect(within(row).getByText('Server Full')).toBeTruthy();
    expect(within(row).getByText('120ms')).toBeTruthy();
    expect(within(row).getByText('aaaaaaaa → bbbbbbbb')).toBeTruthy();
    expect(within(row).getByText('Place 100 → 200')).toBeTruthy();
    expect(within(row).getByText('Server is full')).toBeTruthy();
    expect(within(row).getByText('Attempt 3 of 5 servers')).toBeTruthy();
    // A first attempt says nothing about attempts.
    expect(within(screen.getByRole('listitem', { name: 'Hop by bot 7' })).queryByText(/^Attempt/)).toBeNull();
  });

  it('narrows by outcome, reason and bot id', async () => {
    const user = userEvent.setup();
    render(<HopTimeline hops={hops} />);
    await user.click(screen.getByRole('combobox', { name: 'Filter hops by outcome' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Hops',
      'Success',
      'Failed',
    ]);
    await user.click(screen.getByRole('option', { name: 'Success' }));
    expect(screen.queryByRole('listitem', { name: 'Hop by bot 12' })).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);

    await user.click(screen.getByRole('combobox', { name: 'Filter hops by reason' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Reasons',
      'Manual',
      'Auto Scan',
      'Server Full',
      'Error Recovery',
      'Performance',
    ]);
    await user.click(screen.getByRole('option', { name: 'Auto Scan' }));
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      'Hop by bot 8',
    ]);

    await user.type(screen.getByRole('textbox', { name: 'Filter hops by bot ID' }), '7');
    expect(screen.getByText('No server hop events match the current filters.')).toBeTruthy();
  });
});

describe('long lists', () => {
  it('render only the rows in view: the timeline and the Live Events Feed card', () => {
    const many = Array.from({ length: 500 }, (_, i) => hop(500 - i));
    render(
      <>
        <HopTimeline hops={many} />
        <LiveEventsCard events={many.map(liveEventOfHop)} />
      </>,
    );
    const hopRows = within(screen.getByRole('list', { name: 'Server hops' })).getAllByRole('listitem');
    // 400 px of 96 px rows, plus the overscan below.
    expect(hopRows.length).toBeGreaterThan(4);
    expect(hopRows.length).toBeLessThan(15);
    expect(hopRows[0]!.textContent).toContain('Success');
    const lines = within(screen.getByRole('list', { name: 'Live Events Feed' })).getAllByRole('listitem');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.length).toBeLessThan(25);
    expect(lines[0]!.textContent).toContain('Bot 7 successfully hopped to new server (120ms)');
  });
});

describe('Live Activity tab', () => {
  it('puts the pieces together and says when no live events have come', () => {
    render(<LiveActivityTab hops={[]} events={[]} hopStats={null} totals={{ events: 0, hops: 0 }} />);
    expect(screen.getByText('No live events yet...')).toBeTruthy();
    expect(screen.getByText('No server hop events match the current filters.')).toBeTruthy();
    expect(screen.getByText('Real-time Performance Metrics')).toBeTruthy();
    expect(screen.getByText('Render Count')).toBeTruthy();
    expect(screen.getByText('No activity in the last hour.')).toBeTruthy();
  });

  it('counts its renders in the performance card', async () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <LiveActivityTab hops={[]} events={[]} hopStats={null} totals={{ events: 0, hops: 0 }} />,
    );
    rerender(
      <LiveActivityTab hops={[hop(1)]} events={[]} hopStats={stats()} totals={{ events: 1, hops: 1 }} />,
    );
    act(() => vi.advanceTimersByTime(1000));
    const count = screen.getByText('Render Count').nextElementSibling;
    expect(Number(count?.textContent)).toBeGreaterThanOrEqual(2);
  });

  it('falls back to text where canvas is unavailable (jsdom)', () => {
    render(
      <LiveActivityTab
        hops={[]}
        events={[]}
        hopStats={stats({ lastHour: [{ minute: T, hopsSucceeded: 4, hopsFailed: 1, discoveries: 2 }] })}
        totals={{ events: 0, hops: 0 }}
      />,
    );
    expect(screen.getByText('Chart unavailable in this browser.')).toBeTruthy();
    expect(screen.getByText('4 succeeded · 1 failed · 2 discoveries')).toBeTruthy();
  });
});

describe('fleetChartColumns', () => {
  it('maps minutes to ascending epoch seconds with the three series, dropping bad times', () => {
    expect(
      fleetChartColumns([
        { minute: '2026-11-23T10:01:00.000Z', hopsSucceeded: 3, hopsFailed: 1, discoveries: 0 },
        { minute: 'not a time', hopsSucceeded: 9, hopsFailed: 9, discoveries: 9 },
        { minute: '2026-11-23T10:00:00.000Z', hopsSucceeded: 5, hopsFailed: 0, discoveries: 2 },
      ]),
    ).toEqual([
      [Date.parse('2026-11-23T10:00:00.000Z') / 1000, Date.parse('2026-11-23T10:01:00.000Z') / 1000],
      [5, 3],
      [0, 1],
      [2, 0],
    ]);
  });
});
