import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Input, Textarea } from '@/components/ui/input.tsx';
import {
  MAX_BINDINGS_RANGE,
  REDEMPTION_KEY_TYPES,
  type RedemptionKeyType,
  VALIDITY_HOURS_RANGE,
} from '../../../../common/redemption.ts';
import { CreateDialog } from '../shared/create-dialog.tsx';
import { FormField, SelectFormField, WholeNumberField } from '../shared/form-field.tsx';
import { parseWholeNumber } from '../shared/form-rules.ts';
import { showServerFieldError } from '../shared/server-field-error.ts';
import {
  CREATE_REDEMPTION_CODE_DEFAULTS,
  type CreateRedemptionCodeForm,
  CreateRedemptionCodeFormSchema,
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
    create.mutate(toCreateRedemptionKeyRequest(values), {
      onSuccess: () => onOpenChange(false),
      onError: (error) => showServerFieldError(form, error),
    });
  });

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="Create Redemption Code"
      title="Create Redemption Code"
      description="A script user redeems the code in the game script and gets a script key of this type."
      onSubmit={submit}
      pending={create.isPending}
      submitLabel="Create Code"
    >
      <SelectFormField
        control={form.control}
        name="keyType"
        label="Key Type"
        options={REDEMPTION_KEY_TYPES}
        renderOption={(type) => `${type} — ${KEY_TYPE_DESCRIPTIONS[type]}`}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <WholeNumberField
          label="Max Hardware Bindings"
          className="content-start"
          error={errors.maxHardwareBindings?.message}
          hint="Devices per code (1 to 10)."
          range={MAX_BINDINGS_RANGE}
          registration={form.register('maxHardwareBindings', {
            setValueAs: (raw) => parseWholeNumber(raw, MAX_BINDINGS_RANGE.default),
          })}
        />
        <WholeNumberField
          label="Validity (hours)"
          className="content-start"
          error={errors.validityDuration?.message}
          hint="How long the script key lasts once redeemed (1 to 720 hours, up to 30 days)."
          range={VALIDITY_HOURS_RANGE}
          registration={form.register('validityDuration', {
            setValueAs: (raw) => parseWholeNumber(raw, VALIDITY_HOURS_RANGE.default),
          })}
        />
      </div>
      <FormField
        label="Code Expires At (optional)"
        error={errors.expiresAt?.message}
        hint="Leave empty for no expiration."
      >
        {(control) => <Input {...control} type="datetime-local" {...form.register('expiresAt')} />}
      </FormField>
      <FormField
        label="Notes (optional)"
        error={errors.notes?.message}
        hint="Internal only: script users never see notes."
      >
        {({ id }) => (
          <Textarea
            id={id}
            placeholder="Who the code is for, order reference..."
            {...form.register('notes')}
          />
        )}
      </FormField>
    </CreateDialog>
  );
}
