import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import type { BotConfiguration } from '../../../../common/configuration.ts';

/**
 * The bots a change goes to: a checkbox per bot in the spec's 5-column grid (fewer columns on
 * narrow screens), with Select All, Clear and the count selected. The selection is the page's, so
 * the Profiles tab applies a profile to the same bots.
 */
export function BotSelector({
  configurations,
  selected,
  onSelectedChange,
}: {
  configurations: readonly BotConfiguration[];
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
}) {
  const toggle = (botId: string, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(botId);
    else next.delete(botId);
    onSelectedChange(next);
  };
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1.5">
          <CardTitle className="text-lg">Target Bots</CardTitle>
          <CardDescription aria-live="polite">{`${selected.size} selected`}</CardDescription>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => onSelectedChange(new Set(configurations.map((c) => c.botId)))}
          >
            Select All
          </Button>
          <Button variant="outline" size="sm" onClick={() => onSelectedChange(new Set())}>
            Clear
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <fieldset className="grid max-h-72 grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-3 md:grid-cols-5">
          <legend className="sr-only">Bots to update</legend>
          {configurations.map((configuration) => (
            <label
              key={configuration.botId}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md border px-2 py-1.5 text-sm',
                selected.has(configuration.botId) && 'border-primary bg-primary/10',
              )}
            >
              <input
                type="checkbox"
                className="h-4 w-4 accent-primary"
                checked={selected.has(configuration.botId)}
                onChange={(event) => toggle(configuration.botId, event.target.checked)}
              />
              <span className="truncate font-mono">{configuration.botId}</span>
              <span
                className={cn(
                  'ml-auto h-2 w-2 shrink-0 rounded-full',
                  configuration.isActive ? 'bg-emerald-400' : 'bg-muted-foreground/40',
                )}
                title={configuration.isActive ? 'Active' : 'Inactive'}
              />
              <span className="sr-only">{configuration.isActive ? ' (active)' : ' (inactive)'}</span>
            </label>
          ))}
        </fieldset>
      </CardContent>
    </Card>
  );
}
