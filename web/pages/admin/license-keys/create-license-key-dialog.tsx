import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { Input, Textarea } from '@/components/ui/input.tsx';
import {
  type CreateLicenseKeyRequest,
  LICENSE_KEY_TYPES,
  type LicenseKeyType,
} from '../../../../common/licensing.ts';
import { CreateDialog } from '../shared/create-dialog.tsx';
import { FormField, SelectFormField } from '../shared/form-field.tsx';
import { FORM_MESSAGES, isPastDateTime } from '../shared/form-rules.ts';
import type { GenerateKeyState } from '../shared/router-state.ts';
import { showServerFieldError } from '../shared/server-field-error.ts';
import { useCreateLicenseKey } from './license-key-mutations.ts';

const KEY_TYPE_HINTS: Record<LicenseKeyType, string> = {
  FREE: 'Basic access',
  PREMIUM: 'Full features',
  VIP: 'Premium features, VIP support',
};

const BINDINGS_MESSAGE = 'Max bindings must be a whole number from 1 to 10';

/** The form as typed: the expiry is a local date-time string ('' for never). */
export const CreateLicenseKeyFormSchema = z.object({
  keyType: z.enum(LICENSE_KEY_TYPES),
  maxBindings: z
    .number({ error: BINDINGS_MESSAGE })
    .int(BINDINGS_MESSAGE)
    .min(1, BINDINGS_MESSAGE)
    .max(10, BINDINGS_MESSAGE),
  expiresAt: z
    .string()
    .refine((v) => v === '' || !Number.isNaN(new Date(v).getTime()), 'Enter a valid date and time')
    .refine((v) => !isPastDateTime(v), FORM_MESSAGES.expiryInPast),
  notes: z.string().max(1000, 'Notes must be at most 1000 characters'),
});
export type CreateLicenseKeyForm = z.infer<typeof CreateLicenseKeyFormSchema>;

export const CREATE_LICENSE_KEY_DEFAULTS: CreateLicenseKeyForm = {
  keyType: 'PREMIUM',
  maxBindings: 1,
  expiresAt: '',
  notes: '',
};

/** The API request for a filled form: a local date-time becomes ISO, empty fields become null. */
export function toCreateRequest(form: CreateLicenseKeyForm): CreateLicenseKeyRequest {
  return {
    keyType: form.keyType,
    maxBindings: form.maxBindings,
    expiresAt: form.expiresAt ? new Date(form.expiresAt).toISOString() : null,
    notes: form.notes.trim() || null,
  };
}

/** "Generate Key" and its dialog: type, binding limit, optional expiry and notes. */
export function CreateLicenseKeyDialog() {
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(
    () => (location.state as Partial<GenerateKeyState> | null)?.openGenerateDialog === true,
  );
  const create = useCreateLicenseKey();
  const form = useForm<CreateLicenseKeyForm>({
    resolver: zodResolver(CreateLicenseKeyFormSchema),
    defaultValues: CREATE_LICENSE_KEY_DEFAULTS,
  });
  const { errors } = form.formState;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) return;
    form.reset(CREATE_LICENSE_KEY_DEFAULTS);
    // Forget the quick action's request so a reload does not open the dialog again.
    if (location.state) void navigate(location, { replace: true, state: null });
  };

  const submit = form.handleSubmit((values) => {
    create.mutate(toCreateRequest(values), {
      onSuccess: () => onOpenChange(false),
      onError: (error) => showServerFieldError(form, error),
    });
  });

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="Generate Key"
      title="Generate License Key"
      description="The new key is active at once and shows at the top of the list."
      onSubmit={submit}
      pending={create.isPending}
      submitLabel="Create Key"
    >
      <SelectFormField
        control={form.control}
        name="keyType"
        label="Key Type"
        options={LICENSE_KEY_TYPES}
        renderOption={(type) => `${type} — ${KEY_TYPE_HINTS[type]}`}
      />
      <FormField
        label="Max Hardware Bindings"
        error={errors.maxBindings?.message}
        hint="Devices that may use this key (1 to 10)."
      >
        {(control) => (
          <Input
            {...control}
            type="number"
            min={1}
            max={10}
            step={1}
            {...form.register('maxBindings', { valueAsNumber: true })}
          />
        )}
      </FormField>
      <FormField
        label="Expires At (optional)"
        error={errors.expiresAt?.message}
        hint="Leave empty for a key that never expires."
      >
        {(control) => <Input {...control} type="datetime-local" {...form.register('expiresAt')} />}
      </FormField>
      <FormField label="Notes (optional)" error={errors.notes?.message} hint="Only admins see notes.">
        {({ id }) => (
          <Textarea
            id={id}
            placeholder="Who the key is for, order reference..."
            {...form.register('notes')}
          />
        )}
      </FormField>
    </CreateDialog>
  );
}
