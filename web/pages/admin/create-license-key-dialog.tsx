import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
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
  type CreateLicenseKeyRequest,
  LICENSE_KEY_TYPES,
  type LicenseKeyType,
} from '../../../common/licensing.ts';
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
    .refine((v) => v === '' || new Date(v).getTime() > Date.now(), 'The expiry must be in the future'),
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

/** Router state that opens the dialog on arrival (the dashboard's Generate Key quick action). */
export interface GenerateKeyState {
  openGenerateDialog: true;
}

/** "Generate Key" and its dialog: type, binding limit, optional expiry and notes. */
export function CreateLicenseKeyDialog() {
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(
    () => (location.state as Partial<GenerateKeyState> | null)?.openGenerateDialog === true,
  );
  const create = useCreateLicenseKey();
  const ids = { type: useId(), bindings: useId(), expires: useId(), notes: useId() };
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
    create.mutate(toCreateRequest(values), { onSuccess: () => onOpenChange(false) });
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          Generate Key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Generate License Key</DialogTitle>
          <DialogDescription>
            The new key is active at once and shows at the top of the list.
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
                    {LICENSE_KEY_TYPES.map((type) => (
                      <SelectItem key={type} value={type}>
                        {type} — {KEY_TYPE_HINTS[type]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.bindings}>Max Hardware Bindings</Label>
            <Input
              id={ids.bindings}
              type="number"
              min={1}
              max={10}
              step={1}
              aria-invalid={errors.maxBindings ? true : undefined}
              {...form.register('maxBindings', { valueAsNumber: true })}
            />
            <FieldHint error={errors.maxBindings?.message} hint="Devices that may use this key (1 to 10)." />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.expires}>Expires At (optional)</Label>
            <Input
              id={ids.expires}
              type="datetime-local"
              aria-invalid={errors.expiresAt ? true : undefined}
              {...form.register('expiresAt')}
            />
            <FieldHint error={errors.expiresAt?.message} hint="Leave empty for a key that never expires." />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.notes}>Notes (optional)</Label>
            <Textarea
              id={ids.notes}
              placeholder="Who the key is for, order reference..."
              {...form.register('notes')}
            />
            <FieldHint error={errors.notes?.message} hint="Only admins see notes." />
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

function FieldHint({ error, hint }: { error: string | undefined; hint: string }) {
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {error}
      </p>
    );
  }
  return <p className="text-xs text-muted-foreground">{hint}</p>;
}
