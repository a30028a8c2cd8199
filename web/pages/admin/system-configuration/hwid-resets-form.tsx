import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { SYSTEM_TEXTS, type SystemConfiguration } from '../../../../common/system.ts';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { FieldNote, SaveButton } from './form-parts.tsx';

export const HwidResetsSchema = z.object({
  hwidResetsPerWeek: z
    .number({ error: SYSTEM_TEXTS.hwidResetsMin })
    .int('Device resets per week must be a whole number')
    .min(0, SYSTEM_TEXTS.hwidResetsMin)
    .max(100, 'Device resets per week must be at most 100'),
});
type HwidResets = z.infer<typeof HwidResetsSchema>;

/**
 * How many times a week a buyer may reset their key's devices on My key (/key). Saving sends the
 * whole configuration as saved, with the new budget.
 */
export function HwidResetsForm({
  configuration,
  saving,
  onSave,
}: {
  configuration: SystemConfiguration;
  saving: boolean;
  onSave: (configuration: SystemConfiguration) => void;
}) {
  const fieldId = useId();
  const saved = configuration.hwidResetsPerWeek;
  const form = useForm<HwidResets>({
    resolver: zodResolver(HwidResetsSchema),
    // Follows the saved value (polling, other tabs) unless the admin is editing it.
    values: saved === undefined ? undefined : { hwidResetsPerWeek: saved },
    resetOptions: { keepDirtyValues: true },
  });
  const error = form.formState.errors.hwidResetsPerWeek?.message;
  useUnsavedEdits(saved !== undefined && form.watch('hwidResetsPerWeek') !== saved);
  const submit = form.handleSubmit(({ hwidResetsPerWeek }) =>
    onSave({
      totalSlots: configuration.totalSlots,
      paymentWallets: configuration.paymentWallets,
      hwidResetsPerWeek,
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Device Resets</CardTitle>
        <CardDescription>
          How many times a buyer may reset their script key's devices on My key, over a rolling 7 days. Extra
          resets are granted per key on Script Keys.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid max-w-md gap-4">
          <div className="grid gap-2">
            <Label htmlFor={fieldId}>HWID resets per week</Label>
            <Input
              id={fieldId}
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              step={1}
              aria-invalid={error ? true : undefined}
              {...form.register('hwidResetsPerWeek', { valueAsNumber: true })}
            />
            <FieldNote error={error}>Currently saved: {saved ?? '...'}</FieldNote>
          </div>
          <SaveButton saving={saving}>Save Resets</SaveButton>
        </form>
      </CardContent>
    </Card>
  );
}
