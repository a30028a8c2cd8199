import type { Selectable } from 'kysely';
import { DEFAULT_PAYMENT_DELIVERY, type PaymentDelivery } from '../../../common/payments.ts';
import type { Db } from '../../db/index.ts';
import type { PaymentSettingsTable } from './payments.table.ts';

/** The settings live in one row. */
const SETTINGS_ID = 1;

export type PaymentSettingsRow = Selectable<PaymentSettingsTable>;

/** The stored connection settings (null: not set here) and delivery. */
export interface StoredPaymentSettings {
  btcpayUrl: string | null;
  storeId: string | null;
  apiKey: string | null;
  webhookSecret: string | null;
  /** The webhook secret `webhookSecret` replaced, while it may still verify (see the service). */
  previousWebhookSecret: PreviousWebhookSecret | null;
  /**
   * When a delivery last verified with a previous secret (this one or BTCPAY_WEBHOOK_SECRET_PREVIOUS);
   * null: none since the last change of the secret.
   */
  previousSecretUsedAt: number | null;
  delivery: PaymentDelivery;
}

export interface PreviousWebhookSecret {
  secret: string;
  /** Epoch milliseconds: after this it verifies nothing. */
  expiresAt: number;
}

const NOTHING_STORED: StoredPaymentSettings = {
  btcpayUrl: null,
  storeId: null,
  apiKey: null,
  webhookSecret: null,
  previousWebhookSecret: null,
  previousSecretUsedAt: null,
  delivery: DEFAULT_PAYMENT_DELIVERY,
};

export async function findPaymentSettings(db: Db): Promise<StoredPaymentSettings> {
  const row = await db
    .selectFrom('payment_settings')
    .selectAll()
    .where('id', '=', SETTINGS_ID)
    .executeTakeFirst();
  if (!row) return NOTHING_STORED;
  return {
    btcpayUrl: row.btcpay_url,
    storeId: row.store_id,
    apiKey: row.api_key,
    webhookSecret: row.webhook_secret,
    previousWebhookSecret:
      row.previous_webhook_secret === null || row.previous_webhook_secret_expires_at === null
        ? null
        : { secret: row.previous_webhook_secret, expiresAt: Number(row.previous_webhook_secret_expires_at) },
    previousSecretUsedAt:
      row.previous_webhook_secret_used_at === null ? null : Number(row.previous_webhook_secret_used_at),
    delivery: {
      keyType: row.key_type,
      validityHours: Number(row.validity_hours),
      maxHardwareBindings: Number(row.max_hardware_bindings),
    },
  };
}

/** Writes the whole row (the service merges a change into what is stored first). */
export async function savePaymentSettings(
  db: Db,
  settings: StoredPaymentSettings,
  now: number,
): Promise<void> {
  const values = {
    btcpay_url: settings.btcpayUrl,
    store_id: settings.storeId,
    api_key: settings.apiKey,
    webhook_secret: settings.webhookSecret,
    previous_webhook_secret: settings.previousWebhookSecret?.secret ?? null,
    previous_webhook_secret_expires_at: settings.previousWebhookSecret?.expiresAt ?? null,
    previous_webhook_secret_used_at: settings.previousSecretUsedAt,
    key_type: settings.delivery.keyType,
    validity_hours: settings.delivery.validityHours,
    max_hardware_bindings: settings.delivery.maxHardwareBindings,
    updated_at: now,
  };
  await db
    .insertInto('payment_settings')
    .values({ id: SETTINGS_ID, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/**
 * Notes that a delivery verified with a previous secret (the operator sees rotation still in use).
 * Written whether that secret is stored here or comes from BTCPAY_WEBHOOK_SECRET_PREVIOUS, so the
 * row is made first if nothing was ever saved (leaving a row saved meanwhile as it is).
 */
export async function markPreviousWebhookSecretUsed(db: Db, now: number): Promise<void> {
  const { delivery } = NOTHING_STORED;
  await db
    .insertInto('payment_settings')
    .values({
      id: SETTINGS_ID,
      key_type: delivery.keyType,
      validity_hours: delivery.validityHours,
      max_hardware_bindings: delivery.maxHardwareBindings,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .updateTable('payment_settings')
    .set({ previous_webhook_secret_used_at: now })
    .where('id', '=', SETTINGS_ID)
    .execute();
}
