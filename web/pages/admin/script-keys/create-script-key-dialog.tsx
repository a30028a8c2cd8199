import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { MAX_BINDINGS_RANGE } from '../../../../common/redemption.ts';
import { SCRIPT_KEY_TYPE_LABELS, SCRIPT_KEY_TYPES } from '../../../../common/script-keys.ts';
import { parseWholeNumber } from '../redemption-codes/redemption-form.ts';
import { CreateDialog } from '../shared/create-dialog.tsx';
import { FormField, SelectFormField, WholeNumberField } from '../shared/form-field.tsx';
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
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="Create Script Key"
      title="Create Script Key"
      description="The key unlocks premium scripts in the loader. It is active at once."
      onSubmit={submit}
      pending={create.isPending}
      submitLabel="Create Key"
    >
      <SelectFormField
        control={form.control}
        name="scriptType"
        label="Script Type"
        hint="Premium 24h keys without an expiry expire 24 hours after creation."
        options={SCRIPT_KEY_TYPES}
        renderOption={(type) => SCRIPT_KEY_TYPE_LABELS[type]}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="License Key ID (optional)"
          className="content-start"
          error={errors.licenseKeyId?.message}
        >
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              {...form.register('licenseKeyId', { setValueAs: parseOptionalId })}
            />
          )}
        </FormField>
        <FormField
          label="Redemption Code ID (optional)"
          className="content-start"
          error={errors.redemptionKeyId?.message}
        >
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              {...form.register('redemptionKeyId', { setValueAs: parseOptionalId })}
            />
          )}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <WholeNumberField
          label="Max Hardware Bindings"
          className="content-start"
          error={errors.maxHardwareBindings?.message}
          hint="Devices per key (1 to 10)."
          range={MAX_BINDINGS_RANGE}
          registration={form.register('maxHardwareBindings', {
            setValueAs: (raw) => parseWholeNumber(raw, MAX_BINDINGS_RANGE.default),
          })}
        />
        <FormField
          label="Expires At (optional)"
          className="content-start"
          error={errors.expiresAt?.message}
          hint="Leave empty for no expiration."
        >
          {(control) => <Input {...control} type="datetime-local" {...form.register('expiresAt')} />}
        </FormField>
      </div>
      <FormField label="Notes (optional)" error={errors.notes?.message}>
        {({ id }) => <Textarea id={id} placeholder="Who the key is for..." {...form.register('notes')} />}
      </FormField>
    </CreateDialog>
  );
}
