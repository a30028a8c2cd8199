import { useQuery } from '@tanstack/react-query';
import { Eraser, LoaderCircle, RefreshCw, Save } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import {
  PAYMENT_SETTING_ENV,
  type PaymentConnection,
  type PaymentSettingField,
  type PaymentSettings,
  type UpdatePaymentSettingsRequest,
} from '../../../../common/payments.ts';
import { errorText } from '../shared/error-text.ts';
import { FieldError, FormField } from '../shared/form-field.tsx';
import { useUnsavedEdits } from '../shared/use-unsaved-changes-guard.tsx';
import { BtcpayWebhookSetup } from './btcpay-webhook-setup.tsx';
import { paymentConnectionQuery, useSavePaymentSettings } from './payment-processor-queries.ts';
import { PreviousWebhookSecretNote } from './previous-webhook-secret-note.tsx';

/*
 * The Payment Processor tab's BTCPay Server connection: each field from the environment or set here
 * (the key and the secret never shown whole), the webhook URL to enter in BTCPay, and whether the
 * store answers. A new URL takes the API key again: the saved key goes only to the server it was
 * entered for (the server refuses otherwise too).
 */

const TEXT_FIELDS = [
  { field: 'btcpayUrl', label: 'BTCPay Server URL', placeholder: 'https://btcpay.example.com' },
  { field: 'storeId', label: 'Store ID', placeholder: "From the store's General settings" },
] as const;

const SECRET_FIELDS = [
  { field: 'apiKey', label: 'API key', noun: 'API key' },
  { field: 'webhookSecret', label: 'Webhook secret', noun: 'webhook secret' },
] as const;

type Draft = Record<PaymentSettingField, string>;

export function ConnectionCard({ settings }: { settings: PaymentSettings }) {
  const save = useSavePaymentSettings();
  // The URL and store ID start from what is in effect; the key and secret start empty (kept when left so).
  const [draft, setDraft] = useState<Draft>(() => initialDraft(settings));
  const [keyError, setKeyError] = useState<string | undefined>();
  const setField = (field: PaymentSettingField, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (field === 'apiKey' || field === 'btcpayUrl') setKeyError(undefined);
  };
  const keyAgain = needsKeyAgain(settings, draft);
  useUnsavedEdits(Object.keys(connectionChange(settings, draft)).length > 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change = connectionChange(settings, draft);
    if (Object.keys(change).length === 0) return;
    if (keyAgain && change.apiKey === undefined) {
      setKeyError(KEY_AGAIN_TEXT);
      return;
    }
    save.mutate(change, {
      // The key and secret inputs empty again: what was typed is saved, and shown masked from now on.
      onSuccess: ({ settings: saved }) => setDraft(initialDraft(saved)),
    });
  };
  const clear = (field: 'apiKey' | 'webhookSecret') =>
    save.mutate({ [field]: null }, { onSuccess: () => setField(field, '') });
  const everyFieldFromEnvironment = Object.values(settings.fromEnvironment).every(Boolean);

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-lg">BTCPay Server</CardTitle>
          <ConnectionStatus configured={settings.connected} />
        </div>
        <CardDescription>
          Connected, the buyer page offers Pay now and a settled invoice becomes a redemption code without
          you. Unset, buyers pay into the wallets as before.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form
          onSubmit={submit}
          noValidate
          className="grid max-w-2xl gap-4"
          aria-label="BTCPay Server connection"
        >
          {TEXT_FIELDS.map(({ field, label, placeholder }) => (
            <FormField key={field} label={label} hint={environmentNote(settings, field)}>
              {(control) => (
                <Input
                  {...control}
                  value={draft[field]}
                  placeholder={placeholder}
                  readOnly={settings.fromEnvironment[field]}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => setField(field, e.target.value)}
                />
              )}
            </FormField>
          ))}
          {SECRET_FIELDS.map(({ field, label, noun }) => {
            const stored = settings[field];
            const fromEnvironment = settings.fromEnvironment[field];
            return (
              <FormField
                key={field}
                label={label}
                error={field === 'apiKey' ? keyError : undefined}
                hint={
                  environmentNote(settings, field) ??
                  (field === 'apiKey' && keyAgain
                    ? KEY_AGAIN_TEXT
                    : stored
                      ? `Saved (${stored}). Leave empty to keep it.`
                      : `Not set. Shown only masked once saved.`)
                }
              >
                {(control) => (
                  <div className="flex gap-2">
                    <Input
                      {...control}
                      type="password"
                      value={draft[field]}
                      placeholder={
                        stored ?? (field === 'apiKey' ? 'Greenfield API key' : 'The webhook’s secret')
                      }
                      readOnly={fromEnvironment}
                      autoComplete="new-password"
                      onChange={(e) => setField(field, e.target.value)}
                    />
                    {stored && !fromEnvironment && (
                      <ConfirmActionButton
                        icon={<Eraser />}
                        label={`Clear ${noun}`}
                        className="h-9 w-9 shrink-0"
                        title={`Clear the ${noun}?`}
                        description={`The saved ${noun} is removed. Payments stop until a new one is saved.`}
                        confirmLabel="Clear"
                        onConfirm={() => clear(field)}
                        pending={save.isPending}
                      />
                    )}
                  </div>
                )}
              </FormField>
            );
          })}
          {settings.previousWebhookSecret && (
            <PreviousWebhookSecretNote previous={settings.previousWebhookSecret} />
          )}
          {!everyFieldFromEnvironment && (
            <div>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? <LoaderCircle className="animate-spin" /> : <Save />}
                Save Connection
              </Button>
            </div>
          )}
        </form>

        <BtcpayWebhookSetup />
        {settings.connected && <ConnectionCheck />}
      </CardContent>
    </Card>
  );
}

function initialDraft(settings: PaymentSettings): Draft {
  return {
    btcpayUrl: settings.btcpayUrl ?? '',
    storeId: settings.storeId ?? '',
    apiKey: '',
    webhookSecret: '',
  };
}

/** Why a new URL needs the key typed again (the server says the same in its 400). */
const KEY_AGAIN_TEXT =
  'The URL changed: enter the API key again. A saved key is only ever sent to the server it was entered for.';

/** Whether the URL being saved is a new one while a key is saved here. */
function needsKeyAgain(settings: PaymentSettings, draft: Draft): boolean {
  if (settings.fromEnvironment.btcpayUrl || settings.fromEnvironment.apiKey || !settings.apiKey) return false;
  const url = draft.btcpayUrl.trim().replace(/\/+$/, '');
  return url !== '' && url !== (settings.btcpayUrl ?? '');
}

/** What Save sends: the fields the admin changed (never one the environment sets). */
function connectionChange(settings: PaymentSettings, draft: Draft): UpdatePaymentSettingsRequest {
  const change: UpdatePaymentSettingsRequest = {};
  for (const { field } of TEXT_FIELDS) {
    if (settings.fromEnvironment[field]) continue;
    const value = draft[field].trim();
    if (value === (settings[field] ?? '')) continue;
    change[field] = value === '' ? null : value;
  }
  for (const { field } of SECRET_FIELDS) {
    if (settings.fromEnvironment[field]) continue;
    const value = draft[field].trim();
    if (value !== '') change[field] = value;
  }
  return change;
}

/** The note under a field the environment sets, naming its variable. */
function environmentNote(settings: PaymentSettings, field: PaymentSettingField): string | undefined {
  return settings.fromEnvironment[field]
    ? `Set by the environment (${PAYMENT_SETTING_ENV[field]}): change it there.`
    : undefined;
}

function ConnectionStatus({ configured }: { configured: boolean }) {
  const connection = useQuery({ ...paymentConnectionQuery(), enabled: configured });
  return <Badge {...connectionBadge(configured, connection.data, connection.isError)} />;
}

function connectionBadge(
  configured: boolean,
  connection: PaymentConnection | undefined,
  failed: boolean,
): { variant: 'secondary' | 'success' | 'destructive'; children: string } {
  if (!configured) return { variant: 'secondary', children: 'Not connected' };
  if (failed) return { variant: 'destructive', children: 'Check failed' };
  if (!connection) return { variant: 'secondary', children: 'Checking...' };
  if (connection.reachable) {
    return { variant: 'success', children: `Connected to ${connection.storeName ?? 'the store'}` };
  }
  return { variant: 'destructive', children: 'Not answering' };
}

/** Whether BTCPay Server answers for the store: the store's name, or why not. */
function ConnectionCheck() {
  const connection = useQuery(paymentConnectionQuery());
  const data = connection.data;
  return (
    <div className="grid max-w-2xl gap-2" aria-live="polite">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm">
          {connection.isFetching
            ? 'Asking BTCPay Server for the store...'
            : data?.reachable
              ? `BTCPay Server answers for ${data.storeName ?? 'the store'}.`
              : 'BTCPay Server does not answer for the store.'}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void connection.refetch()}
          disabled={connection.isFetching}
        >
          <RefreshCw className={connection.isFetching ? 'animate-spin' : undefined} />
          Check again
        </Button>
      </div>
      {connection.isError ? (
        <FieldError message={errorText(connection.error.cause ?? connection.error)} />
      ) : (
        data?.error && <FieldError message={data.error} />
      )}
    </div>
  );
}
