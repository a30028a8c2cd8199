import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Save } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { PaymentSettings } from '../../../../common/payments.ts';
import {
  MAX_BINDINGS_RANGE,
  REDEMPTION_KEY_TYPES,
  VALIDITY_HOURS_RANGE,
} from '../../../../common/redemption.ts';
import { errorText } from '../shared/error-text.ts';
import { SelectFormField, WholeNumberField } from '../shared/form-field.tsx';
import { FORM_MESSAGES, numberInRange, parseWholeNumber } from '../shared/form-rules.ts';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { ConnectionCard } from './payment-connection-card.tsx';
import { paymentSettingsQuery, useSavePaymentSettings } from './payment-processor-queries.ts';

/**
 * System Configuration's Payment Processor tab: the BTCPay Server connection (each field from the
 * environment or set here; the key and the secret never shown whole), the webhook URL to enter in
 * BTCPay, whether the store answers, and what a paid order delivers.
 */
export function PaymentProcessorTab() {
  const settings = useQuery(paymentSettingsQuery());
  if (settings.isError && !settings.data) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Payment settings unavailable</AlertTitle>
        <AlertDescription>{errorText(settings.error.cause ?? settings.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!settings.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-busy="true">
        <LoaderCircle className="h-4 w-4 animate-spin" />
        Loading payment settings...
      </p>
    );
  }
  return (
    <div className="grid gap-6">
      <ConnectionCard settings={settings.data} />
      {settings.data.connected && <DeliveryCard settings={settings.data} />}
    </div>
  );
}

// ---------------------------------------------------------------- delivery

const DeliveryFormSchema = z.object({
  keyType: z.enum(REDEMPTION_KEY_TYPES, { error: FORM_MESSAGES.required }),
  validityHours: numberInRange(VALIDITY_HOURS_RANGE),
  maxHardwareBindings: numberInRange(MAX_BINDINGS_RANGE),
});
type DeliveryForm = z.infer<typeof DeliveryFormSchema>;

/** What a paid order delivers: a code of this type, validity and device limit (the create-code form's rules). */
function DeliveryCard({ settings }: { settings: PaymentSettings }) {
  const save = useSavePaymentSettings();
  const form = useForm<DeliveryForm>({
    resolver: zodResolver(DeliveryFormSchema),
    // Follows the saved values (polling) unless the admin is editing them.
    values: settings.delivery,
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = form.formState;
  const typed = form.watch();
  const saved = settings.delivery;
  useUnsavedEdits(
    typed.keyType !== saved.keyType ||
      typed.validityHours !== saved.validityHours ||
      typed.maxHardwareBindings !== saved.maxHardwareBindings,
  );
  const submit = form.handleSubmit((delivery) =>
    save.mutate({ delivery }, { onSuccess: ({ settings: saved }) => form.reset(saved.delivery) }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">What an Order Delivers</CardTitle>
        <CardDescription>
          The redemption code a paid order creates. An order keeps what was set when it was placed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid max-w-2xl gap-4" aria-label="Order delivery">
          <SelectFormField
            control={form.control}
            name="keyType"
            label="Key Type"
            options={REDEMPTION_KEY_TYPES}
            renderOption={(type) => type}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <WholeNumberField
              label="Validity (hours)"
              className="content-start"
              error={errors.validityHours?.message}
              hint="How long the script key lasts once redeemed (1 to 720 hours)."
              range={VALIDITY_HOURS_RANGE}
              registration={form.register('validityHours', {
                setValueAs: (raw) => parseWholeNumber(raw, VALIDITY_HOURS_RANGE.default),
              })}
            />
            <WholeNumberField
              label="Device limit"
              className="content-start"
              error={errors.maxHardwareBindings?.message}
              hint="Devices per code (1 to 10)."
              range={MAX_BINDINGS_RANGE}
              registration={form.register('maxHardwareBindings', {
                setValueAs: (raw) => parseWholeNumber(raw, MAX_BINDINGS_RANGE.default),
              })}
            />
          </div>
          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? <LoaderCircle className="animate-spin" /> : <Save />}
              Save Delivery
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
