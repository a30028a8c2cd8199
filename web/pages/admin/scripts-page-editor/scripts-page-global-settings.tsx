import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { ScriptsPageConfig } from '../../../../common/scripts-page.ts';
import { TextField } from '../shared/field-controls.tsx';

export type GlobalSettingsChange = Partial<
  Pick<ScriptsPageConfig, 'headerTitle' | 'headerSubtitle' | 'securityBadge' | 'showBackButton'>
>;

/** The header's text fields, top to bottom; the limits are the server's. */
const HEADER_FIELDS: readonly {
  key: 'headerTitle' | 'headerSubtitle' | 'securityBadge';
  label: string;
  maxLength: number;
  rows?: number;
  placeholder?: string;
}[] = [
  { key: 'headerTitle', label: 'Header Title', maxLength: 200 },
  { key: 'headerSubtitle', label: 'Header Subtitle', maxLength: 1000, rows: 3 },
  {
    key: 'securityBadge',
    label: 'Security Badge',
    maxLength: 100,
    placeholder: 'Leave empty to hide the badge',
  },
];

/** The page-wide settings of /scripts: its header texts and the Back to Home button. */
export function ScriptsPageGlobalSettings({
  config,
  onChange,
}: {
  config: ScriptsPageConfig;
  onChange: (change: GlobalSettingsChange) => void;
}) {
  const backId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Global Settings</CardTitle>
        <CardDescription>The header visitors see at the top of the scripts page.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {HEADER_FIELDS.map(({ key, ...field }) => (
          <TextField
            key={key}
            {...field}
            // A little more room between label and control than the denser section and button forms.
            fieldClassName="gap-2"
            value={config[key]}
            onValueChange={(value) => onChange({ [key]: value })}
          />
        ))}
        <div className="flex items-center justify-between gap-4 rounded-md border p-4">
          <div className="grid gap-1">
            <Label htmlFor={backId}>Show Back to Home button</Label>
            <p className="text-sm text-muted-foreground">A link back to the landing page above the header.</p>
          </div>
          <Switch
            id={backId}
            checked={config.showBackButton === 1}
            onCheckedChange={(checked) => onChange({ showBackButton: checked ? 1 : 0 })}
          />
        </div>
      </CardContent>
    </Card>
  );
}
