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
  type PreviousWebhookSecret,
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
  /** The secret `webhookSecret` replaced, while it still verifies (a rotation); null otherwise. */
  previousWebhookSecret: string | null;
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
  /** The webhook secret the current one replaced, while it verifies too. */
  previousWebhookSecret: EffectivePreviousSecret | null;
}

export interface EffectivePreviousSecret {
  secret: string;
  fromEnvironment: boolean;
  /** Null: from the environment, verifying while BTCPAY_WEBHOOK_SECRET_PREVIOUS is set. */
  expiresAt: number | null;
  usedAt: number | null;
}

/** The stored previous secret while its grace runs, else null. */
function livePrevious(stored: StoredPaymentSettings, now: number): PreviousWebhookSecret | null {
  const previous = stored.previousWebhookSecret;
  return previous && stored.webhookSecret !== null && now < previous.expiresAt ? previous : null;
}

/**
 * The previous secret in effect: BTCPAY_WEBHOOK_SECRET_PREVIOUS while the environment sets the
 * secret (a restart changes both), else the one a change saved here replaced, until its grace ends.
 */
function effectivePrevious(ctx: AppContext, stored: StoredPaymentSettings): EffectivePreviousSecret | null {
  if (ctx.config.BTCPAY_WEBHOOK_SECRET !== undefined) {
    const secret = ctx.config.BTCPAY_WEBHOOK_SECRET_PREVIOUS;
    if (secret === undefined) return null;
    return { secret, fromEnvironment: true, expiresAt: null, usedAt: stored.previousSecretUsedAt };
  }
  const live = livePrevious(stored, ctx.now());
  return live && { ...live, fromEnvironment: false, usedAt: stored.previousSecretUsedAt };
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
  const previousWebhookSecret = effectivePrevious(ctx, stored);
  const connection =
    btcpayUrl && storeId && apiKey && webhookSecret
      ? {
          url: btcpayUrl.replace(/\/+$/, ''),
          storeId,
          apiKey,
          webhookSecret,
          previousWebhookSecret: previousWebhookSecret?.secret ?? null,
          policy: fromEnvironment.btcpayUrl ? null : outboundPolicy(ctx),
        }
      : null;
  return { connection, delivery: stored.delivery, values, fromEnvironment, previousWebhookSecret };
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
  const { values, previousWebhookSecret: previous } = settings;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    btcpayUrl: values.btcpayUrl,
    storeId: values.storeId,
    apiKey: values.apiKey === null ? null : maskSetting(values.apiKey),
    webhookSecret: values.webhookSecret === null ? null : maskSetting(values.webhookSecret),
    ...(previous && {
      previousWebhookSecret: {
        secret: maskSetting(previous.secret),
        fromEnvironment: previous.fromEnvironment,
        expiresAt: iso(previous.expiresAt),
        lastUsedAt: iso(previous.usedAt),
      },
    }),
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
  next.previousWebhookSecret = previousAfterChange(ctx, stored, next.webhookSecret);
  // A new rotation (or none) has not been used yet.
  if (next.previousWebhookSecret?.expiresAt !== stored.previousWebhookSecret?.expiresAt) {
    next.previousSecretUsedAt = null;
  }
  await savePaymentSettings(ctx.db, next, ctx.now());
  return getPaymentSettings(ctx);
}

/**
 * A new webhook secret starts a rotation: the one it replaces keeps verifying for
 * BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES (BTCPay signs with it until the operator enters the new one
 * there, and retries what it sent), and only the one before the current is kept. Clearing the secret
 * drops both: whoever clears it wants it trusted no more.
 */
function previousAfterChange(
  ctx: AppContext,
  stored: StoredPaymentSettings,
  nextSecret: string | null,
): PreviousWebhookSecret | null {
  const now = ctx.now();
  if (nextSecret === null) return null;
  if (nextSecret === stored.webhookSecret || stored.webhookSecret === null) return livePrevious(stored, now);
  const graceMs = ctx.config.BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES * 60_000;
  return graceMs > 0 ? { secret: stored.webhookSecret, expiresAt: now + graceMs } : null;
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
