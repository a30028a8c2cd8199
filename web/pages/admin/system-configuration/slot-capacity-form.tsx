import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, Save } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { type SlotUsage, SYSTEM_TEXTS, type SystemConfiguration } from '../../../../common/system.ts';

export const SlotCapacitySchema = z.object({
  totalSlots: z
    .number({ error: SYSTEM_TEXTS.totalSlotsMin })
    .int('Total slots must be a whole number')
    .min(0, SYSTEM_TEXTS.totalSlotsMin)
    .max(1_000_000, 'Total slots must be at most 1,000,000'),
});
type SlotCapacity = z.infer<typeof SlotCapacitySchema>;

/**
 * The total capacity form. Saving sends the whole configuration: the new total with the wallets
 * as they are saved now (a wallet draft on the other tab stays a draft).
 */
export function SlotCapacityForm({
  configuration,
  slotUsage,
  saving,
  onSave,
}: {
  configuration: SystemConfiguration;
  slotUsage: SlotUsage | undefined;
  saving: boolean;
  onSave: (configuration: SystemConfiguration) => void;
}) {
  const fieldId = useId();
  const form = useForm<SlotCapacity>({
    resolver: zodResolver(SlotCapacitySchema),
    // Follows the saved value (polling, other tabs) unless the admin is editing it.
    values: { totalSlots: configuration.totalSlots },
    resetOptions: { keepDirtyValues: true },
  });
  const error = form.formState.errors.totalSlots?.message;
  const used = slotUsage?.usedSlots;

  const submit = form.handleSubmit(({ totalSlots }) => {
    onSave({ totalSlots, paymentWallets: configuration.paymentWallets });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Total Slot Capacity</CardTitle>
        <CardDescription>
          How many premium licenses can be sold. Available slots are this total minus the active premium and
          VIP licenses.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid max-w-md gap-4">
          <div className="grid gap-2">
            <Label htmlFor={fieldId}>Total Slots</Label>
            <Input
              id={fieldId}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              aria-invalid={error ? true : undefined}
              {...form.register('totalSlots', { valueAsNumber: true })}
            />
            {error ? (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : (
              <p className="text-xs text-muted-foreground">
                Currently saved: {configuration.totalSlots}
                {used === undefined ? '' : `, in use: ${used}`}
              </p>
            )}
          </div>
          <div>
            <Button type="submit" disabled={saving}>
              {saving ? <LoaderCircle className="animate-spin" /> : <Save />}
              Save Capacity
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
