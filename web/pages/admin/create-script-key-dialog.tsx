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
import { MAX_BINDINGS_RANGE } from '../../../common/redemption.ts';
import { SCRIPT_KEY_TYPE_LABELS, SCRIPT_KEY_TYPES } from '../../../common/script-keys.ts';
import { FieldError } from './create-redemption-code-dialog.tsx';
import { parseWholeNumber } from './redemption-form.ts';
import {
  CREATE_SCRIPT_KEY_DEFAULTS,
  type CreateScriptKeyForm,
  CreateScriptKeyFormSchema,
  parseOptionalId,
  toCreateScriptKeyRequest,
} from './script-key-form.ts';
import { useCreateScriptKey } from './script-key-mutations.ts';

/** "Create Script Key" and its dialog: type, optional license key and code ids, binding limit, expiry, notes. */
export function CreateScriptKeyDialog() {
  const [open, setOpen] = useState(false);
  const create = useCreateScriptKey();
  const ids = {
    type: useId(),
    license: useId(),
    redemption: useId(),
    bindings: useId(),
    expires: useId(),
    notes: useId(),
  };
  const form = useForm<CreateScriptKeyForm>({
    resolver: zodResolver(CreateScriptKeyFormSchema),
    defaultValues: CREATE_SCRIPT_KEY_DEFAULTS,
  });
  const { errors } = form.formState;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) form.reset(CREATE_SCRIPT_KEY_DEFAULTS);
  };

  const submit = form.handleSubmit((values) => {
    create.mutate(toCreateScriptKeyRequest(values), { onSuccess: () => onOpenChange(false) });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          Create Script Key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Script Key</DialogTitle>
          <DialogDescription>
            The key unlocks premium scripts in the loader. It is active at once.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={ids.type}>Script Type</Label>
            <Controller
              control={form.control}
              name="scriptType"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id={ids.type} onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {SCRIPT_KEY_TYPES.map((type) => (
                      <SelectItem key={type} value={type}>
                        {SCRIPT_KEY_TYPE_LABELS[type]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <FieldError
              message={errors.scriptType?.message}
              hint="Premium 24h keys without an expiry expire 24 hours after creation."
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-2">
              <Label htmlFor={ids.license}>License Key ID (optional)</Label>
              <Input
                id={ids.license}
                inputMode="numeric"
                aria-invalid={errors.licenseKeyId ? true : undefined}
                {...form.register('licenseKeyId', { setValueAs: parseOptionalId })}
              />
              <FieldError message={errors.licenseKeyId?.message} />
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor={ids.redemption}>Redemption Code ID (optional)</Label>
              <Input
                id={ids.redemption}
                inputMode="numeric"
                aria-invalid={errors.redemptionKeyId ? true : undefined}
                {...form.register('redemptionKeyId', { setValueAs: parseOptionalId })}
              />
              <FieldError message={errors.redemptionKeyId?.message} />
            </div>
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
              <FieldError message={errors.maxHardwareBindings?.message} hint="Devices per key (1 to 10)." />
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor={ids.expires}>Expires At (optional)</Label>
              <Input
                id={ids.expires}
                type="datetime-local"
                aria-invalid={errors.expiresAt ? true : undefined}
                {...form.register('expiresAt')}
              />
              <FieldError message={errors.expiresAt?.message} hint="Leave empty for no expiration." />
            </div>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.notes}>Notes (optional)</Label>
            <Textarea id={ids.notes} placeholder="Who the key is for..." {...form.register('notes')} />
            <FieldError message={errors.notes?.message} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <LoaderCircle className="animate-spin" />}
              Create Key
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
