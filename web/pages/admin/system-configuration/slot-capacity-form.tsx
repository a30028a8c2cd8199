import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';
import { buttonVariants } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { type SlotUsage, SYSTEM_TEXTS, type SystemConfiguration } from '../../../../common/system.ts';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { FieldNote, SaveButton } from './form-parts.tsx';

export const SlotCapacitySchema = z.object({
  totalSlots: z
    .number({ error: SYSTEM_TEXTS.totalSlotsMin })
    .int('Total slots must be a whole number')
    .min(0, SYSTEM_TEXTS.totalSlotsMin)
    .max(1_000_000, 'Total slots must be at most 1,000,000'),
});
type SlotCapacity = z.infer<typeof SlotCapacitySchema>;

/**
 * The warning for a total below the slots in use, or null. The server accepts such a total (keys
 * already sold stay valid), but nobody can buy a slot until enough of them expire or are revoked.
 */
export function slotsInUseWarning(totalSlots: number, usedSlots: number | undefined): string | null {
  if (usedSlots === undefined || !Number.isInteger(totalSlots) || totalSlots < 0) return null;
  if (totalSlots >= usedSlots) return null;
  const inUse = usedSlots === 1 ? '1 slot is in use' : `${usedSlots} slots are in use`;
  return `${inUse}: lowering the total below that leaves no slot available until keys expire.`;
}

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
  const warningId = useId();
  // The total waiting for the admin's word because it is below the slots in use.
  const [unconfirmed, setUnconfirmed] = useState<number | null>(null);
  const form = useForm<SlotCapacity>({
    resolver: zodResolver(SlotCapacitySchema),
    // Follows the saved value (polling, other tabs) unless the admin is editing it.
    values: { totalSlots: configuration.totalSlots },
    resetOptions: { keepDirtyValues: true },
  });
  const error = form.formState.errors.totalSlots?.message;
  const used = slotUsage?.usedSlots;
  const typed = form.watch('totalSlots');
  const warning = slotsInUseWarning(typed, used);
  useUnsavedEdits(typed !== configuration.totalSlots);

  const save = (totalSlots: number) => onSave({ totalSlots, paymentWallets: configuration.paymentWallets });
  const submit = form.handleSubmit(({ totalSlots }) => {
    if (slotsInUseWarning(totalSlots, used)) setUnconfirmed(totalSlots);
    else save(totalSlots);
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
              aria-describedby={warning && !error ? warningId : undefined}
              {...form.register('totalSlots', { valueAsNumber: true })}
            />
            <FieldNote error={error}>
              Currently saved: {configuration.totalSlots}
              {used === undefined ? '' : `, in use: ${used}`}
            </FieldNote>
            {warning && !error && (
              <p id={warningId} role="status" className="flex gap-2 text-sm text-amber-300">
                <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                {warning}
              </p>
            )}
          </div>
          <SaveButton saving={saving}>Save Capacity</SaveButton>
        </form>
        <AlertDialog open={unconfirmed !== null} onOpenChange={(open) => !open && setUnconfirmed(null)}>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Set fewer slots than are in use?</AlertDialogTitle>
              <AlertDialogDescription>
                {unconfirmed === null ? '' : slotsInUseWarning(unconfirmed, used)} Keys already sold keep
                working.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                className={buttonVariants({ variant: 'destructive' })}
                onClick={() => unconfirmed !== null && save(unconfirmed)}
              >
                Save Anyway
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
