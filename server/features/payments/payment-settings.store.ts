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
  delivery: PaymentDelivery;
}

const NOTHING_STORED: StoredPaymentSettings = {
  btcpayUrl: null,
  storeId: null,
  apiKey: null,
  webhookSecret: null,
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
