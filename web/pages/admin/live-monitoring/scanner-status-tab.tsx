import { Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { cn } from '@/lib/cn.ts';
import type { Scanner, ScannerStatus } from '../../../../common/fleet.ts';
import { EnrolledBotsCard } from './enrolled-bots.tsx';
import { useRemoveBot } from './live-monitoring-mutations.ts';

const ALL_BOTS = 'all';

/** Natural order, so ghost-2 comes before ghost-10 (and ghost-05 between them). */
const byId = new Intl.Collator('en', { numeric: true }).compare;

/**
 * Spec section 4: active and scanning green, hopping blue, inactive grey, error red. Green 700, not
 * 600: white 12 px text needs 4.5:1 (green 600 gives 3.2:1).
 */
export const SCANNER_STATUS_BADGE: Record<ScannerStatus, string> = {
  active: 'bg-green-700 text-white',
  scanning: 'bg-green-700 text-white',
  hopping: 'bg-blue-600 text-white',
  inactive: 'bg-gray-500 text-white',
  error: 'bg-red-600 text-white',
};

/** A time of day with seconds: what a live view needs ('Invalid date' when unparsable). */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid date' : date.toLocaleTimeString('en-US');
}

/** Spec: job ids are cut to 16 characters on cards. */
export const cardJobId = (jobId: string | null) => (jobId ? jobId.slice(0, 16) : 'None');

/**
 * The Scanner Status tab: one card per scanner, narrowed to one bot by the dropdown. Each card can
 * remove its bot from the fleet; the card goes when the server's next scanner list comes. Under
 * them, the bots holding their own credential, each of which can be revoked.
 */
export function ScannerStatusTab({ scanners: received }: { scanners: Scanner[] }) {
  const [botId, setBotId] = useState(ALL_BOTS);
  // The server lists them in the order they joined; a person looks a bot up by its id.
  const scanners = useMemo(() => [...received].sort((a, b) => byId(a.id, b.id)), [received]);
  const shown = botId === ALL_BOTS ? scanners : scanners.filter((s) => s.botId === botId);
  const removeBot = useRemoveBot();

  return (
    <div className="flex flex-col gap-4">
      <div className="w-full sm:w-64">
        <Select value={botId} onValueChange={setBotId}>
          <SelectTrigger aria-label="Filter by bot">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL_BOTS}>All Bots</SelectItem>
            {/* Spec: one option per bot, 'Bot N - status'. */}
            {scanners.map((s) => (
              <SelectItem key={s.id} value={s.botId}>
                Bot {s.botId} - {s.status}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {shown.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">No scanner data available</p>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((scanner) => (
            <ScannerCard
              key={scanner.id}
              scanner={scanner}
              removing={removeBot.isPending && removeBot.variables === scanner.botId}
              onRemove={() => removeBot.mutate(scanner.botId)}
            />
          ))}
        </div>
      )}
      <EnrolledBotsCard />
    </div>
  );
}

function ScannerCard({
  scanner,
  removing,
  onRemove,
}: {
  scanner: Scanner;
  removing: boolean;
  onRemove: () => void;
}) {
  return (
    <Card role="group" aria-label={`Bot ${scanner.botId}`}>
      <CardHeader className="flex-row items-center justify-between gap-2 pb-2">
        <CardTitle className="min-w-0 truncate text-base">Bot {scanner.botId}</CardTitle>
        <div className="flex shrink-0 items-center gap-1">
          <Badge className={cn('border-transparent', SCANNER_STATUS_BADGE[scanner.status])}>
            {scanner.status}
          </Badge>
          <ConfirmActionButton
            icon={<Trash2 />}
            label={`Remove bot ${scanner.botId}`}
            className="text-red-400 hover:text-red-300"
            pending={removing}
            title={`Remove bot ${scanner.botId}?`}
            description="It leaves the fleet with its configuration, and the pool servers it holds go back to the pool; its hops and finds stay. A connected bot is told and disconnected. It joins again as a new bot if it reconnects."
            confirmLabel="Remove Bot"
            onConfirm={onRemove}
          />
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
          <Field label="Scans/Min" value={scanner.scansPerMinute.toLocaleString('en-US')} />
          <Field label="Pets Found" value={scanner.petsFound.toLocaleString('en-US')} />
          <Field label="Uptime" value={`${Math.round(scanner.uptime)}%`} />
          <Field label="Hop Rate" value={`${Math.round(scanner.hopSuccessRate)}%`} />
          <Field label="Current Job" value={cardJobId(scanner.currentJobId)} mono />
          <Field label="Last Activity" value={formatTime(scanner.lastActivity)} />
        </dl>
      </CardContent>
    </Card>
  );
}

export function Field({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn('truncate', mono && 'font-mono text-xs')}>{value}</dd>
    </div>
  );
}
