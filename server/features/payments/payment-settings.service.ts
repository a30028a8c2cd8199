import {
  PAYMENT_SETTING_ENV,
  PAYMENT_SETTING_FIELDS,
  PAYMENT_SETTINGS_TEXTS,
  type PaymentDelivery,
  type PaymentSettingField,
  type PaymentSettings,
  type UpdatePaymentSettings,
} from '../../../common/payments.ts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http-error.ts';
import {
  checkOutboundUrl,
  type OutboundPolicy,
  OutboundUrlError,
} from '../notifications/outbound-request.ts';
import {
  findPaymentSettings,
  type StoredPaymentSettings,
  savePaymentSettings,
} from './payment-settings.store.ts';

/** Everything an order and the webhook need to talk to BTCPay Server (all four set). */
export interface BtcpayConnection {
  /** Base URL without a trailing slash. */
  url: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string;
  /**
   * The rules every call to `url` is held to: the notification destinations' (NOTIFY_ALLOW_HOSTS,
   * NOTIFY_ALLOW_PRIVATE) for a URL entered on the screen; null for one the environment sets.
   */
  policy: OutboundPolicy | null;
}

/** The outbound rules of this server, as notification destinations follow them. */
function outboundPolicy(ctx: AppContext): OutboundPolicy {
  return { allowHosts: ctx.config.NOTIFY_ALLOW_HOSTS, allowPrivate: ctx.config.NOTIFY_ALLOW_PRIVATE };
}

/** The settings in effect: each connection field from the environment when set there, else stored. */
export interface EffectivePaymentSettings {
  /** Null unless all four connection settings are set. */
  connection: BtcpayConnection | null;
  delivery: PaymentDelivery;
  values: Record<PaymentSettingField, string | null>;
  fromEnvironment: Record<PaymentSettingField, boolean>;
}

function environmentValues(ctx: AppContext): Record<PaymentSettingField, string | undefined> {
  return {
    btcpayUrl: ctx.config.BTCPAY_URL,
    storeId: ctx.config.BTCPAY_STORE_ID,
    apiKey: ctx.config.BTCPAY_API_KEY,
    webhookSecret: ctx.config.BTCPAY_WEBHOOK_SECRET,
  };
}

/** Read on every order and webhook (one indexed row), so a change on one instance holds on all at once. */
export async function getEffectivePaymentSettings(ctx: AppContext): Promise<EffectivePaymentSettings> {
  const stored = await findPaymentSettings(ctx.db);
  const env = environmentValues(ctx);
  const values = {} as Record<PaymentSettingField, string | null>;
  const fromEnvironment = {} as Record<PaymentSettingField, boolean>;
  for (const field of PAYMENT_SETTING_FIELDS) {
    values[field] = env[field] ?? stored[field];
    fromEnvironment[field] = env[field] !== undefined;
  }
  const { btcpayUrl, storeId, apiKey, webhookSecret } = values;
  const connection =
    btcpayUrl && storeId && apiKey && webhookSecret
      ? {
          url: btcpayUrl.replace(/\/+$/, ''),
          storeId,
          apiKey,
          webhookSecret,
          policy: fromEnvironment.btcpayUrl ? null : outboundPolicy(ctx),
        }
      : null;
  return { connection, delivery: stored.delivery, values, fromEnvironment };
}

/** The connection, or null when payments are not set up. */
export async function getBtcpayConnection(ctx: AppContext): Promise<BtcpayConnection | null> {
  return (await getEffectivePaymentSettings(ctx)).connection;
}

/** A secret as the screen shows it: its last 4 characters. */
export function maskSetting(value: string): string {
  return value.length <= 8 ? '••••' : `••••${value.slice(-4)}`;
}

/** The settings as the admin reads them: the key and the webhook secret masked. */
export function presentPaymentSettings(settings: EffectivePaymentSettings): PaymentSettings {
  const { values } = settings;
  return {
    btcpayUrl: values.btcpayUrl,
    storeId: values.storeId,
    apiKey: values.apiKey === null ? null : maskSetting(values.apiKey),
    webhookSecret: values.webhookSecret === null ? null : maskSetting(values.webhookSecret),
    fromEnvironment: settings.fromEnvironment,
    connected: settings.connection !== null,
    delivery: settings.delivery,
  };
}

export async function getPaymentSettings(ctx: AppContext): Promise<PaymentSettings> {
  return presentPaymentSettings(await getEffectivePaymentSettings(ctx));
}

/**
 * Applies a change: an absent field is kept, null clears it. A field the environment sets cannot be
 * changed here (400 naming its variable).
 */
export async function updatePaymentSettings(
  ctx: AppContext,
  change: UpdatePaymentSettings,
): Promise<PaymentSettings> {
  const env = environmentValues(ctx);
  const stored = await findPaymentSettings(ctx.db);
  const next = { ...stored };
  for (const field of PAYMENT_SETTING_FIELDS) {
    const value = change[field];
    if (value === undefined) continue;
    if (env[field] !== undefined) {
      throw badRequest(
        `${field} is set by the environment (${PAYMENT_SETTING_ENV[field]}) and cannot be changed here`,
      );
    }
    // The schema trimmed it; a base URL is kept without its trailing slash.
    next[field] = field === 'btcpayUrl' && value !== null ? value.replace(/\/+$/, '') : value;
  }
  if (next.btcpayUrl !== null && next.btcpayUrl !== stored.btcpayUrl) {
    await checkNewBtcpayUrl(ctx, next.btcpayUrl, stored, change);
  }
  if (change.delivery) next.delivery = change.delivery;
  await savePaymentSettings(ctx.db, next, ctx.now());
  return getPaymentSettings(ctx);
}

/**
 * A new BTCPay URL: held to the notification destinations' rules (400 naming the broken one), and
 * only with the API key entered again, so a key saved for one server is never sent to another.
 */
async function checkNewBtcpayUrl(
  ctx: AppContext,
  url: string,
  stored: StoredPaymentSettings,
  change: UpdatePaymentSettings,
): Promise<void> {
  if (ctx.config.BTCPAY_API_KEY !== undefined) throw badRequest(PAYMENT_SETTINGS_TEXTS.apiKeyFromEnvironment);
  // A new key, or the key cleared: either way the saved one goes nowhere new.
  if (stored.apiKey !== null && change.apiKey === undefined) {
    throw badRequest(PAYMENT_SETTINGS_TEXTS.apiKeyRequired);
  }
  try {
    await checkOutboundUrl(url, 'json', outboundPolicy(ctx));
  } catch (error) {
    if (error instanceof OutboundUrlError) throw badRequest(`btcpayUrl: ${error.message}`);
    throw error;
  }
}
