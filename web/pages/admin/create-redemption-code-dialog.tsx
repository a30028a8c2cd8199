import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import {
  MAX_BINDINGS_RANGE,
  REDEMPTION_KEY_TYPES,
  type RedemptionKeyType,
  VALIDITY_HOURS_RANGE,
} from '../../../common/redemption.ts';
import {
  CREATE_REDEMPTION_CODE_DEFAULTS,
  type CreateRedemptionCodeForm,
  CreateRedemptionCodeFormSchema,
  parseWholeNumber,
  toCreateRedemptionKeyRequest,
} from './redemption-form.ts';
import { useCreateRedemptionCode } from './redemption-mutations.ts';

/** What each type unlocks, as the spec describes it. */
const KEY_TYPE_DESCRIPTIONS: Record<RedemptionKeyType, string> = {
  FREE: 'basic access',
  PREMIUM: 'full features',
  VIP: 'premium features',
};

/** "Create Redemption Code" and its dialog: type, binding limit, validity, optional expiry and notes. */
export function CreateRedemptionCodeDialog() {
  const [open, setOpen] = useState(false);
  const create = useCreateRedemptionCode();
  const ids = { type: useId(), bindings: useId(), validity: useId(), expires: useId(), notes: useId() };
  const form = useForm<CreateRedemptionCodeForm>({
    resolver: zodResolver(CreateRedemptionCodeFormSchema),
    defaultValues: CREATE_REDEMPTION_CODE_DEFAULTS,
  });
  const { errors } = form.formState;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) form.reset(CREATE_REDEMPTION_CODE_DEFAULTS);
  };

  const submit = form.handleSubmit((values) => {
    create.mutate(toCreateRedemptionKeyRequest(values), { onSuccess: () => onOpenChange(false) });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          Create Redemption Code
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Redemption Code</DialogTitle>
          <DialogDescription>
            A script user redeems the code in the game script and gets a script key of this type.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={ids.type}>Key Type</Label>
            <Controller
              control={form.control}
              name="keyType"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id={ids.type} onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {REDEMPTION_KEY_TYPES.map((type) => (
                      <SelectItem key={type} value={type}>
                        {type} — {KEY_TYPE_DESCRIPTIONS[type]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <FieldError message={errors.keyType?.message} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-2">
              <Label htmlFor={ids.bindings}>Max Hardware Bindings</Label>
              <Input
                id={ids.bindings}
                type="number"
                inputMode="numeric"
                min={MAX_BINDINGS_RANGE.min}
                max={MAX_BINDINGS_RANGE.max}
                step={1}
                aria-invalid={errors.maxHardwareBindings ? true : undefined}
                {...form.register('maxHardwareBindings', {
                  setValueAs: (raw) => parseWholeNumber(raw, MAX_BINDINGS_RANGE.default),
                })}
              />
              <FieldError message={errors.maxHardwareBindings?.message} hint="Devices per code (1 to 10)." />
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor={ids.validity}>Validity (hours)</Label>
              <Input
                id={ids.validity}
                type="number"
                inputMode="numeric"
                min={VALIDITY_HOURS_RANGE.min}
                max={VALIDITY_HOURS_RANGE.max}
                step={1}
                aria-invalid={errors.validityDuration ? true : undefined}
                {...form.register('validityDuration', {
                  setValueAs: (raw) => parseWholeNumber(raw, VALIDITY_HOURS_RANGE.default),
                })}
              />
              <FieldError
                message={errors.validityDuration?.message}
                hint="How long the script key lasts once redeemed (1 to 720 hours, up to 30 days)."
              />
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.expires}>Code Expires At (optional)</Label>
            <Input
              id={ids.expires}
              type="datetime-local"
              aria-invalid={errors.expiresAt ? true : undefined}
              {...form.register('expiresAt')}
            />
            <FieldError message={errors.expiresAt?.message} hint="Leave empty for no expiration." />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.notes}>Notes (optional)</Label>
            <Textarea
              id={ids.notes}
              placeholder="Who the code is for, order reference..."
              {...form.register('notes')}
            />
            <FieldError message={errors.notes?.message} hint="Internal only: script users never see notes." />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <LoaderCircle className="animate-spin" />}
              Create Code
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A field's validation message, or its hint while it is valid. */
export function FieldError({ message, hint }: { message: string | undefined; hint?: string }) {
  if (message) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {message}
      </p>
    );
  }
  return hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null;
}
