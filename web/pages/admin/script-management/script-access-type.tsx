import { useId } from 'react';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import {
  SCRIPT_ACCESS_TYPES,
  type ScriptAccessType,
  type ScriptSummary,
} from '../../../../common/scripts.ts';
import { useUpdateAccessType } from './script-mutations.ts';

/** What each access type means for the people loading the script (spec section 4). */
export const ACCESS_TYPE_EXPLANATIONS: Record<ScriptAccessType, string> = {
  FREE: 'FREE: available to all users, keyless.',
  PREMIUM: 'PREMIUM: requires a valid licence key and hardware binding.',
};

/** FREE or PREMIUM for the open script; a change applies at once. */
export function ScriptAccessTypeSelect({ script }: { script: ScriptSummary }) {
  const id = useId();
  const update = useUpdateAccessType();
  // Show the requested type while the change is under way, the stored one otherwise.
  const shown =
    update.isPending && update.variables.filename === script.name
      ? update.variables.accessType
      : script.accessType;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Access Type</Label>
      <Select
        value={shown}
        disabled={update.isPending}
        onValueChange={(value) => {
          if (value !== script.accessType) {
            update.mutate({ filename: script.name, accessType: value as ScriptAccessType });
          }
        }}
      >
        <SelectTrigger id={id} aria-label="Access Type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {SCRIPT_ACCESS_TYPES.map((type) => (
            <SelectItem key={type} value={type}>
              {type}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <p className="text-xs text-muted-foreground">{ACCESS_TYPE_EXPLANATIONS[shown]}</p>
    </div>
  );
}
