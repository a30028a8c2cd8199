import { z } from 'zod';

/** Empty or blank text is no value: `BTCPAY_API_KEY=` leaves the setting to System Configuration. */
const blankAsUnset = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/**
 * The settings of the services outside the server it talks to (server/config.ts joins them with the
 * others): a language model, notification destinations, BTCPay Server.
 */
export const OUTSIDE_SERVICE_SETTINGS = {
  /*
   * The optional language-model summary of a health report (features/health/report/model-summary.ts):
   * with AI_BASE_URL and AI_MODEL set, Generate Report also asks an OpenAI-compatible endpoint
   * (`${AI_BASE_URL}/chat/completions`, e.g. Ollama's http://localhost:11434/v1) for a short summary.
   * Unset, the report is rule-based only.
   */
  /** Base URL of an OpenAI-compatible API, up to and without `/chat/completions`. */
  AI_BASE_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const url = URL.canParse(v) ? new URL(v) : null;
      if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return v.trim().replace(/\/+$/, '');
      ctx.addIssue(`${v} is not an http(s) URL like http://localhost:11434/v1`);
      return z.NEVER;
    }),
  /** The model name the endpoint knows (`llama3.2`, `qwen2.5:7b`). */
  AI_MODEL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  /** Sent as `Authorization: Bearer …` when set (hosted endpoints; a local Ollama needs none). */
  AI_API_KEY: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** How long Generate Report waits for the model before storing the rule-based report alone. */
  AI_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(100, 'must be at least 100')
    .max(600_000, 'must be at most 600000 (ten minutes)')
    .default(20_000),
  /*
   * Notifications (server/features/notifications): where finds may be posted. A 'discord'
   * destination takes only Discord's webhook hosts, and no destination may reach a private,
   * loopback or link-local address, unless these settings say otherwise.
   */
  /** Hosts a 'discord' destination may post to besides Discord's own, comma-separated (a relay, a test double). */
  NOTIFY_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    ),
  /**
   * 'true' lets destinations (and a BTCPay URL entered on the Payment Processor tab) reach addresses
   * that are not public, and plain http to them: for tests (a fake Discord or BTCPay on 127.0.0.1)
   * and a bridge on the operator's own network.
   */
  NOTIFY_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * 'false': this instance writes finds' deliveries but never sends them (another instance does;
   * one sends for the whole cluster anyway, through a lease in the database).
   */
  NOTIFY_DISPATCH: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * A join link added to Discord posts that include join data, with `{placeId}` and `{jobId}`
   * filled in, e.g. `https://example.com/join?placeId={placeId}&gameInstanceId={jobId}`. It must be
   * https: Discord shows only http(s) links, and a join link should not travel in clear.
   */
  NOTIFY_JOIN_URL_TEMPLATE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const template = v.trim();
      const url = URL.canParse(template) ? new URL(template) : null;
      if (url?.protocol === 'https:') return template;
      ctx.addIssue(
        `${template} is not an https URL like https://example.com/join?placeId={placeId}&gameInstanceId={jobId}`,
      );
      return z.NEVER;
    }),
  /*
   * Payments (server/features/payments): BTCPay Server's Greenfield API. Each of the four, when set
   * here, wins over what System Configuration stores; with all four set (in either place) the buyer
   * page offers Pay now. Empty counts as unset.
   */
  /** The BTCPay Server's base URL, e.g. https://btcpay.example.com. */
  BTCPAY_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const url = v?.trim().replace(/\/+$/, '');
      if (!url) return undefined;
      if (/^https?:\/\/[^/]/.test(url) && URL.canParse(url)) return url;
      ctx.addIssue(`${url} is not an http(s) URL like https://btcpay.example.com`);
      return z.NEVER;
    }),
  /** The store whose invoices the orders are. */
  BTCPAY_STORE_ID: z.string().optional().transform(blankAsUnset),
  /** A Greenfield API key with the store's btcpay.store.cancreateinvoice and btcpay.store.canviewinvoices permissions. */
  BTCPAY_API_KEY: z.string().optional().transform(blankAsUnset),
  /** The secret of the store's webhook (BTCPay-Sig's HMAC key). */
  BTCPAY_WEBHOOK_SECRET: z.string().optional().transform(blankAsUnset),
  /**
   * The secret BTCPAY_WEBHOOK_SECRET replaced, verifying too while it is set: for a rotation in the
   * environment (remove it once BTCPay signs with the new one). Only alongside BTCPAY_WEBHOOK_SECRET.
   */
  BTCPAY_WEBHOOK_SECRET_PREVIOUS: z.string().optional().transform(blankAsUnset),
  /**
   * Minutes a webhook secret replaced in System Configuration keeps verifying, so deliveries BTCPay
   * still signs with it (until the operator enters the new one there, and its retries) are not lost.
   */
  BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of minutes')
    .min(0, 'must be 0 (no grace) or more')
    .max(7 * 24 * 60, 'must be at most 10080 (a week)')
    .default(90),
  /** How often pending orders' invoices are read again (a webhook that never came), in milliseconds. */
  PAYMENTS_RECONCILE_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000 (one second)')
    .default(60_000),
  /*
   * Mail (features/payments/order-mail.ts): with SMTP_URL set, a paid order whose buyer gave an
   * e-mail at Pay now gets its code and its order link there. Unset: no mail is sent.
   */
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465; nodemailer's connection URL. */
  SMTP_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return undefined;
      const url = URL.canParse(v.trim()) ? new URL(v.trim()) : null;
      if (url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname) return v.trim();
      // The value may carry a password: it is not repeated in the message.
      ctx.addIssue('is not an SMTP URL like smtp://user:password@mail.example.com:587 or smtps://…:465');
      return z.NEVER;
    }),
  /** The sender of the order mail: an address, or `Name <address>`. */
  SMTP_FROM: z
    .string()
    .default('Scanline <noreply@localhost>')
    .transform((v, ctx) => {
      const value = v.trim();
      const address = /<([^<>\s]+)>$/.exec(value)?.[1] ?? value;
      if (z.email().safeParse(address).success || /^[^@\s]+@localhost$/.test(address)) return value;
      ctx.addIssue(`${v} is not an e-mail address like shop@example.com or "Scanline <shop@example.com>"`);
      return z.NEVER;
    }),
};

type OutsideServiceSettings = {
  [K in keyof typeof OUTSIDE_SERVICE_SETTINGS]: z.output<(typeof OUTSIDE_SERVICE_SETTINGS)[K]>;
};

/** What the settings above demand of each other (server/config.ts runs it on the parsed environment). */
export function checkOutsideServiceSettings(config: OutsideServiceSettings, ctx: z.RefinementCtx): void {
  // A previous secret alone would verify deliveries while no current one does.
  if (config.BTCPAY_WEBHOOK_SECRET_PREVIOUS !== undefined && config.BTCPAY_WEBHOOK_SECRET === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['BTCPAY_WEBHOOK_SECRET_PREVIOUS'],
      message: 'is only taken alongside BTCPAY_WEBHOOK_SECRET (the secret that replaced it)',
    });
  }
}
