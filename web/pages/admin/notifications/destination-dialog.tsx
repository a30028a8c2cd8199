import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Pencil, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { type Control, useController, useForm } from 'react-hook-form';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
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
import { Switch } from '@/components/ui/switch.tsx';
import {
  DESTINATION_KINDS,
  type Destination,
  type DestinationKind,
  defaultMaxAgeSeconds,
  LATE_MODES,
  type LateMode,
} from '../../../../common/notifications.ts';
import { errorText } from '../shared/error-text.ts';
import { FormField, SelectFormField } from '../shared/form-field.tsx';
import { serverFieldError, showServerFieldError } from '../shared/server-field-error.ts';
import {
  type DestinationForm,
  destinationFormSchema,
  destinationToForm,
  formToRequest,
  NEW_DESTINATION_FORM,
} from './destination-form.ts';
import { useSaveDestination } from './notifications-mutations.ts';
import { destinationsQuery } from './notifications-queries.ts';

export const KIND_LABELS: Record<DestinationKind, string> = {
  discord: 'Discord webhook',
  json: 'JSON webhook',
};

/** What happens to a find older than the maximum age, in the operator's words. */
export const LATE_MODE_LABELS: Record<LateMode, string> = {
  drop: "Don't post it (count it as dropped)",
  mark: 'Post it, marked late',
};

/**
 * "Add Destination" (no `destination`) or a row's Edit button, and its dialog. The form mounts with
 * the dialog, so each opening starts from the stored destination (or the defaults).
 */
export function DestinationDialog({ destination }: { destination?: Destination }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {destination ? (
          <Button
            variant="ghost"
            size="icon"
            className="h-8 w-8"
            aria-label={`Edit ${destination.name}`}
            title="Edit"
          >
            <Pencil />
          </Button>
        ) : (
          <Button>
            <Plus />
            Add Destination
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{destination ? `Edit ${destination.name}` : 'Add Destination'}</DialogTitle>
          <DialogDescription>
            Finds whose value falls in the range are posted here, after the delay.
          </DialogDescription>
        </DialogHeader>
        <DestinationFormBody destination={destination} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function DestinationFormBody({ destination, onDone }: { destination?: Destination; onDone: () => void }) {
  const editing = destination !== undefined;
  const save = useSaveDestination(destination?.id);
  // The server's URL settings come with the list the screen already holds.
  const urlPolicy = useQuery(destinationsQuery()).data?.urlPolicy;
  const form = useForm<DestinationForm>({
    resolver: zodResolver(destinationFormSchema(editing, urlPolicy)),
    defaultValues: destination ? destinationToForm(destination) : NEW_DESTINATION_FORM,
  });
  const { errors } = form.formState;
  const kind = form.watch('kind');
  const delayText = form.watch('delaySeconds');
  const delay = Number(delayText);
  const automaticMaxAge = defaultMaxAgeSeconds(Number.isInteger(delay) && delay >= 0 ? delay : 0);

  const submit = form.handleSubmit((values) => {
    save.mutate(formToRequest(values), {
      onSuccess: onDone,
      onError: (error) => showServerFieldError(form, error),
    });
  });
  // A refusal that names a field shows beside it; any other at the form's foot.
  const footError = save.isError && !serverFieldError(save.error, Object.keys(NEW_DESTINATION_FORM));

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormField label="Name" error={errors.name?.message} hint="Shown on this screen only, e.g. #finds-10m.">
        {(control) => <Input {...control} autoComplete="off" {...form.register('name')} />}
      </FormField>
      <SelectFormField
        control={form.control}
        name="kind"
        label="Kind"
        options={DESTINATION_KINDS}
        renderOption={(option) => KIND_LABELS[option]}
      />
      <FormField
        label={editing ? 'URL (optional)' : 'URL'}
        error={errors.url?.message}
        hint={
          editing
            ? `Stored: ${destination.url}. Leave empty to keep it.`
            : kind === 'discord'
              ? 'https://discord.com/api/webhooks/{id}/{token}'
              : 'An https address that takes the find as JSON.'
        }
      >
        {(control) => (
          <Input
            {...control}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            {...form.register('url')}
          />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Minimum value"
          className="content-start"
          error={errors.minValue?.message}
          hint="Per second, e.g. 1M, 2.5B or 1000000; included."
        >
          {(control) => <Input {...control} inputMode="decimal" {...form.register('minValue')} />}
        </FormField>
        <FormField
          label="Maximum value (optional)"
          className="content-start"
          error={errors.maxValue?.message}
          hint="Empty for no maximum."
        >
          {(control) => <Input {...control} inputMode="decimal" {...form.register('maxValue')} />}
        </FormField>
      </div>
      <FormField
        label="Pet names (optional)"
        error={errors.petNames?.message}
        hint="One a line. Empty for every pet."
      >
        {(control) => <Textarea {...control} rows={3} spellCheck={false} {...form.register('petNames')} />}
      </FormField>
      <FormField
        label="Delay (seconds)"
        error={errors.delaySeconds?.message}
        hint="How long after the find it is posted (0 to 86400)."
      >
        {(control) => (
          <Input
            {...control}
            type="number"
            inputMode="numeric"
            min={0}
            max={86_400}
            step={1}
            {...form.register('delaySeconds')}
          />
        )}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Maximum age (seconds, optional)"
          className="content-start"
          error={errors.maxAgeSeconds?.message}
          hint={`A find older than this is not posted as new (after an outage). Empty: automatic, ${automaticMaxAge} s for this delay.`}
        >
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={10}
              step={1}
              placeholder={`Automatic (${automaticMaxAge} s)`}
              {...form.register('maxAgeSeconds')}
            />
          )}
        </FormField>
        <SelectFormField
          control={form.control}
          name="lateMode"
          label="An older find"
          options={LATE_MODES}
          renderOption={(option) => LATE_MODE_LABELS[option]}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Mention role id (optional)"
          className="content-start"
          error={errors.mentionRoleId?.message}
          hint="A Discord role to ping."
        >
          {(control) => (
            <Input {...control} inputMode="numeric" autoComplete="off" {...form.register('mentionRoleId')} />
          )}
        </FormField>
        <FormField
          label="Mention from value (optional)"
          className="content-start"
          error={errors.mentionFromValue?.message}
          hint="Ping only from this value (e.g. 50M); empty for every find."
        >
          {(control) => <Input {...control} inputMode="decimal" {...form.register('mentionFromValue')} />}
        </FormField>
      </div>
      <SwitchField control={form.control} name="includeJoinData" label="Include join data">
        Place and job ids with a ready join snippet.
      </SwitchField>
      <SwitchField control={form.control} name="enabled" label="Enabled">
        Off keeps the destination but posts nothing.
      </SwitchField>
      <SwitchField control={form.control} name="alerts" label="Operator alerts (not finds)">
        Fleet down and back, emergency stop, payments, failing notifications, low disk: posted here instead of
        finds (the find settings above do not apply).
      </SwitchField>
      {footError && (
        <Alert variant="destructive">
          <AlertDescription>{errorText(save.error)}</AlertDescription>
        </Alert>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <LoaderCircle className="animate-spin" />}
          {editing ? 'Save Destination' : 'Add Destination'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** A switch with its label and a line saying what it does. */
function SwitchField({
  control,
  name,
  label,
  children,
}: {
  control: Control<DestinationForm>;
  name: 'includeJoinData' | 'enabled' | 'alerts';
  label: string;
  children: string;
}) {
  const { field } = useController({ control, name });
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={id}
        checked={field.value}
        onCheckedChange={field.onChange}
        onBlur={field.onBlur}
        aria-describedby={`${id}-hint`}
      />
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {children}
        </p>
      </div>
    </div>
  );
}
