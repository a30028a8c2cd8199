import { useId } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { formatDate, formatFileSize } from '../../../../common/format.ts';
import type { ScriptLocation, ScriptSummary } from '../../../../common/scripts.ts';

const LOCATION_LABELS: Record<ScriptLocation, string> = { project: 'Project', 'hosted-scripts': 'Hosted' };

/** The script being edited, chosen by file name. */
export function ScriptPicker({
  scripts,
  selected,
  onSelect,
}: {
  scripts: readonly ScriptSummary[];
  selected: string;
  onSelect: (name: string) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Script</Label>
      <Select value={selected} onValueChange={onSelect}>
        <SelectTrigger id={id} aria-label="Script">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {scripts.map((script) => (
            <SelectItem key={script.name} value={script.name}>
              {script.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** What the stored script is: where it lives, its size, lines, version and when it last changed. */
export function ScriptFacts({ script }: { script: ScriptSummary }) {
  const facts: [string, string][] = [
    ['Size', formatFileSize(script.size)],
    ['Lines', script.lines.toLocaleString('en-US')],
    ['Version', `Version ${script.version}`],
    ['Last modified', formatDate(script.lastModified)],
  ];
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={script.location === 'project' ? 'secondary' : 'outline'}>
          {LOCATION_LABELS[script.location]}
        </Badge>
        <Badge variant={script.accessType === 'FREE' ? 'success' : 'default'}>{script.accessType}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        {facts.map(([term, value]) => (
          // The date is the longest fact: it gets the whole row rather than an ellipsis.
          <div key={term} className={term === 'Last modified' ? 'col-span-2 min-w-0' : 'min-w-0'}>
            <dt className="text-xs text-muted-foreground">{term}</dt>
            <dd className="truncate font-medium" title={value}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
