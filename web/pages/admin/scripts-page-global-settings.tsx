import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';

export type GlobalSettingsChange = Partial<
  Pick<ScriptsPageConfig, 'headerTitle' | 'headerSubtitle' | 'securityBadge' | 'showBackButton'>
>;

/** The page-wide settings of /scripts: its header texts and the Back to Home button. */
export function ScriptsPageGlobalSettings({
  config,
  onChange,
}: {
  config: ScriptsPageConfig;
  onChange: (change: GlobalSettingsChange) => void;
}) {
  const ids = {
    title: useId(),
    subtitle: useId(),
    badge: useId(),
    back: useId(),
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Global Settings</CardTitle>
        <CardDescription>The header visitors see at the top of the scripts page.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-2">
          <Label htmlFor={ids.title}>Header Title</Label>
          <Input
            id={ids.title}
            value={config.headerTitle}
            maxLength={200}
            onChange={(e) => onChange({ headerTitle: e.target.value })}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.subtitle}>Header Subtitle</Label>
          <Textarea
            id={ids.subtitle}
            value={config.headerSubtitle}
            maxLength={1000}
            rows={3}
            onChange={(e) => onChange({ headerSubtitle: e.target.value })}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.badge}>Security Badge</Label>
          <Input
            id={ids.badge}
            value={config.securityBadge}
            maxLength={100}
            placeholder="Leave empty to hide the badge"
            onChange={(e) => onChange({ securityBadge: e.target.value })}
          />
        </div>
        <div className="flex items-center justify-between gap-4 rounded-md border p-4">
          <div className="grid gap-1">
            <Label htmlFor={ids.back}>Show Back to Home button</Label>
            <p className="text-sm text-muted-foreground">A link back to the landing page above the header.</p>
          </div>
          <Switch
            id={ids.back}
            checked={config.showBackButton === 1}
            onCheckedChange={(checked) => onChange({ showBackButton: checked ? 1 : 0 })}
          />
        </div>
      </CardContent>
    </Card>
  );
}
