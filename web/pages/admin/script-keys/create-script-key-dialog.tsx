import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Control, useController, useForm } from 'react-hook-form';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { MAX_BINDINGS_RANGE } from '../../../../common/redemption.ts';
import { SCRIPT_KEY_TYPE_LABELS, SCRIPT_KEY_TYPES } from '../../../../common/script-keys.ts';
import { CreateDialog } from '../shared/create-dialog.tsx';
import { errorText } from '../shared/error-text.ts';
import { FormField, SelectFormField, WholeNumberField } from '../shared/form-field.tsx';
import { parseWholeNumber } from '../shared/form-rules.ts';
import { licenseKeysQuery, redemptionKeysQuery } from '../shared/queries.ts';
import { type SearchableOption, SearchableSelect } from '../shared/searchable-select.tsx';
import { showServerFieldError } from '../shared/server-field-error.ts';
import {
  CREATE_SCRIPT_KEY_DEFAULTS,
  type CreateScriptKeyForm,
  CreateScriptKeyFormSchema,
  licenseKeyOptions,
  redemptionCodeOptions,
  toCreateScriptKeyRequest,
} from './script-key-form.ts';
import { useCreateScriptKey } from './script-key-mutations.ts';

/**
 * "Create Script Key" and its dialog: type, an optional license key and redemption code (picked from
 * searchable lists, sent as ids), binding limit, expiry, notes.
 */
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
    create.mutate(toCreateScriptKeyRequest(values), {
      onSuccess: () => onOpenChange(false),
      onError: (error) => showServerFieldError(form, error),
    });
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
        <LicenseKeyField control={form.control} />
        <RedemptionCodeField control={form.control} />
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

/** Every license key, searchable by its value, type, status, notes or id. Loaded when the dialog opens. */
function LicenseKeyField({ control }: { control: Control<CreateScriptKeyForm> }) {
  const keys = useQuery(licenseKeysQuery({ search: '', status: 'all' }));
  return (
    <LinkedRecordField
      control={control}
      name="licenseKeyId"
      label="License Key (optional)"
      options={keys.data ? licenseKeyOptions(keys.data.licenseKeys) : undefined}
      loadError={keys.isError ? `Could not load license keys: ${errorText(keys.error)}` : null}
      placeholder="Search license keys..."
      emptyText="No license key matches"
    />
  );
}

/** Every redemption code; a code that already backs a script key is shown but cannot be picked. */
function RedemptionCodeField({ control }: { control: Control<CreateScriptKeyForm> }) {
  const codes = useQuery(redemptionKeysQuery());
  return (
    <LinkedRecordField
      control={control}
      name="redemptionKeyId"
      label="Redemption Code (optional)"
      options={codes.data ? redemptionCodeOptions(codes.data.redemptionKeys) : undefined}
      loadError={codes.isError ? errorText(codes.error) : null}
      placeholder="Search redemption codes..."
      emptyText="No redemption code matches"
    />
  );
}

function LinkedRecordField({
  control,
  name,
  label,
  options,
  loadError,
  placeholder,
  emptyText,
}: {
  control: Control<CreateScriptKeyForm>;
  name: 'licenseKeyId' | 'redemptionKeyId';
  label: string;
  options: SearchableOption<number>[] | undefined;
  loadError: string | null;
  placeholder: string;
  emptyText: string;
}) {
  const { field, fieldState } = useController({ control, name });
  return (
    <FormField label={label} className="content-start" error={fieldState.error?.message}>
      {(controlProps) => (
        <SearchableSelect
          {...controlProps}
          value={field.value}
          options={options}
          onChange={field.onChange}
          onBlur={field.onBlur}
          noneLabel="None"
          placeholder={placeholder}
          emptyText={emptyText}
          loadError={loadError}
        />
      )}
    </FormField>
  );
}
