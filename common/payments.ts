import { z } from 'zod';
import {
  ORDER_EMAIL_TEXTS,
  ORDER_MAIL_STATES,
  ORDER_PAYMENT_STATES,
  ORDER_SECRET_PATTERN,
  ORDER_STATUSES,
} from './order-texts.ts';
import { CreateRedemptionKeySchema, REDEMPTION_KEY_TYPES } from './redemption.ts';

export {
  ORDER_MAIL_STATES,
  ORDER_PAYMENT_STATES,
  ORDER_STATUSES,
  type OrderMailState,
  type OrderPaymentState,
  type OrderStatus,
} from './order-texts.ts';

/*
 * Payments through BTCPay Server's Greenfield API: the public order calls, the admin's settings and
 * orders, as they are validated and answered. Times on the wire are ISO strings.
 */

/** One sale: 40 USD, as the buyer page shows it. */
export const ORDER_PRICE = { amount: '40', currency: 'USD' } as const;

// ---------------------------------------------------------------- public

/** An e-mail as the Pay now form and the lookup take it (trimmed; at most 254 characters). */
export const BuyerEmailSchema = z
  .string({ error: ORDER_EMAIL_TEXTS.invalid })
  .trim()
  .max(254, 'email must be at most 254 characters')
  .pipe(z.email({ error: ORDER_EMAIL_TEXTS.invalid }));

/** POST /api/public/orders: the body is optional; an empty e-mail is none. */
export const CreateOrderRequestSchema = z
  .object(
    {
      email: z
        .union([z.literal('').transform(() => undefined), BuyerEmailSchema])
        .nullish()
        .transform((value) => value ?? undefined),
    },
    { error: 'Request body must be a JSON object (with an optional email)' },
  )
  .nullish()
  .transform((value): { email?: string } => ({ email: value?.email }));
export type CreateOrderRequest = z.input<typeof CreateOrderRequestSchema>;

/** POST /api/public/orders/lookup: a lost order page, found by its invoice id and the e-mail. */
export const OrderLookupRequestSchema = z.object(
  {
    invoiceId: z
      .string({ error: 'invoiceId must be text' })
      .trim()
      .min(1, 'invoiceId is required: the invoice ID on the BTCPay Server receipt')
      .max(200, 'invoiceId must be at most 200 characters'),
    email: BuyerEmailSchema,
  },
  { error: 'Request body must be a JSON object with invoiceId and email' },
);
export type OrderLookupRequest = z.infer<typeof OrderLookupRequestSchema>;
export const OrderLookupResponseSchema = z
  .object({
    orderId: z.string(),
    /** The order page with its secret: /order/{id}#{secret}. */
    orderLink: z.string(),
  })
  .meta({ id: 'OrderFound' });
export type OrderLookupResponse = z.infer<typeof OrderLookupResponseSchema>;

/** POST /api/public/orders (201). */
export const CreateOrderResponseSchema = z
  .object({
    orderId: z.string(),
    /**
     * Where the buyer pays: the app's /api/public/orders/{id}/checkout, which holds the slot for the
     * invoice's life and sends the buyer on to BTCPay's checkout (which sends them back to
     * /order/{id}#{secret}).
     */
    checkoutLink: z.string(),
  })
  .meta({ id: 'OrderCreated' });
export type CreateOrderResponse = z.infer<typeof CreateOrderResponseSchema>;

/** POST /api/public/orders/{id}/status */
export const OrderStatusRequestSchema = z.object(
  {
    secret: z
      .string({ error: 'secret must be text' })
      .regex(ORDER_SECRET_PATTERN, 'secret must be the 22 characters after # in the order link'),
  },
  { error: 'Request body must be a JSON object with the order secret' },
);

/** An amount of money as BTCPay writes it: decimal text and a currency code. */
export const MoneySchema = z.object({ amount: z.string(), currency: z.string() }).meta({ id: 'Money' });
export type Money = z.infer<typeof MoneySchema>;

export const OrderStatusResponseSchema = z
  .object({
    status: z.enum(ORDER_STATUSES),
    /** The redemption code, once paid. */
    code: z.string().optional(),
    keyType: z.enum(REDEMPTION_KEY_TYPES),
    /** Hours the script key made from the code stays valid. */
    validityHours: z.number().int(),
    /** When the invoice expires (pending) or expired. */
    expiresAt: z.string(),
    /** While pending: where to pay (the app's checkout link, as the order was created with). */
    checkoutLink: z.string().optional(),
    /** underpaid / mismatch, and a partial or overpaid payment: the order's price and what BTCPay says was paid. */
    expected: MoneySchema.optional(),
    received: MoneySchema.optional(),
    /** What BTCPay says beyond the status: processing (nothing more to pay), partial, late, over. */
    payment: z.enum(ORDER_PAYMENT_STATES).optional(),
    /** Paid, and its code was redeemed (the key it made is on My key). */
    redeemed: z.boolean().optional(),
  })
  .meta({ id: 'OrderStatus' });
export type OrderStatusResponse = z.infer<typeof OrderStatusResponseSchema>;

// ---------------------------------------------------------------- admin: settings

/** What a paid order delivers, validated as the create-code form is (defaults PREMIUM, 24 h, 1 device). */
export const PaymentDeliverySchema = z.object(
  {
    keyType: CreateRedemptionKeySchema.shape.keyType,
    validityHours: CreateRedemptionKeySchema.shape.validityDuration,
    maxHardwareBindings: CreateRedemptionKeySchema.shape.maxHardwareBindings,
  },
  { error: 'delivery must be an object with keyType, validityHours and maxHardwareBindings' },
);
export type PaymentDelivery = z.output<typeof PaymentDeliverySchema>;
export const DEFAULT_PAYMENT_DELIVERY: PaymentDelivery = {
  keyType: 'PREMIUM',
  validityHours: 24,
  maxHardwareBindings: 1,
};

/** The four connection settings, each from the environment or from System Configuration. */
export const PAYMENT_SETTING_FIELDS = ['btcpayUrl', 'storeId', 'apiKey', 'webhookSecret'] as const;
export type PaymentSettingField = (typeof PAYMENT_SETTING_FIELDS)[number];
/** The environment variable behind each field. */
export const PAYMENT_SETTING_ENV: Record<PaymentSettingField, string> = {
  btcpayUrl: 'BTCPAY_URL',
  storeId: 'BTCPAY_STORE_ID',
  apiKey: 'BTCPAY_API_KEY',
  webhookSecret: 'BTCPAY_WEBHOOK_SECRET',
};

/** GET/PUT /api/admin/payments/settings: the key and the secret masked, never whole. */
export const PaymentSettingsSchema = z
  .object({
    btcpayUrl: z.string().nullable(),
    storeId: z.string().nullable(),
    /** Masked (last 4 characters). */
    apiKey: z.string().nullable(),
    /** Masked (last 4 characters). */
    webhookSecret: z.string().nullable(),
    /**
     * Present while the webhook secret it replaced still verifies (a rotation): deliveries BTCPay
     * signs with either are taken.
     */
    previousWebhookSecret: z
      .object({
        /** Masked (last 4 characters). */
        secret: z.string(),
        /** From BTCPAY_WEBHOOK_SECRET_PREVIOUS (verifies while set) rather than a change saved here. */
        fromEnvironment: z.boolean(),
        /** When it stops verifying (ISO); null for one from the environment. */
        expiresAt: z.string().nullable(),
        /** When a delivery last came signed with it (ISO); null: none since the change. */
        lastUsedAt: z.string().nullable(),
      })
      .optional(),
    /** Which fields the environment sets (those cannot be changed here). */
    fromEnvironment: z.object({
      btcpayUrl: z.boolean(),
      storeId: z.boolean(),
      apiKey: z.boolean(),
      webhookSecret: z.boolean(),
    }),
    /** All four are set: the buyer page offers Pay now. */
    connected: z.boolean(),
    delivery: PaymentDeliverySchema,
  })
  .meta({ id: 'PaymentSettings' });
export type PaymentSettings = z.infer<typeof PaymentSettingsSchema>;

export const PaymentSettingsResponseSchema = z
  .object({ settings: PaymentSettingsSchema })
  .meta({ id: 'PaymentSettingsResponse' });
export type PaymentSettingsResponse = z.infer<typeof PaymentSettingsResponseSchema>;

const optionalSetting = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text or null` })
    .trim()
    .min(1, `${field} cannot be empty (send null to clear it)`)
    .max(max, `${field} must be at most ${max} characters`)
    .nullable()
    .optional();

/** PUT /api/admin/payments/settings: an absent field is kept, null clears it. */
export const UpdatePaymentSettingsSchema = z.object(
  {
    btcpayUrl: z
      .string({ error: 'btcpayUrl must be text or null' })
      .trim()
      .max(500, 'btcpayUrl must be at most 500 characters')
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
        } catch {
          return false;
        }
      }, 'btcpayUrl must be an http(s) URL like https://btcpay.example.com')
      .nullable()
      .optional(),
    storeId: optionalSetting('storeId', 200),
    apiKey: optionalSetting('apiKey', 500),
    webhookSecret: optionalSetting('webhookSecret', 500),
    delivery: PaymentDeliverySchema.optional(),
  },
  { error: 'Request body must be a JSON object' },
);

export const PAYMENT_SETTINGS_TEXTS = {
  /** PUT …/payments/settings changing btcpayUrl without a new apiKey (400). */
  apiKeyRequired:
    'apiKey is required when btcpayUrl changes: the saved API key is only ever sent to the server it was entered for',
  /** The same while the environment sets the API key: the URL must come from there too. */
  apiKeyFromEnvironment:
    'btcpayUrl cannot be changed here while BTCPAY_API_KEY sets the API key: set BTCPAY_URL in the environment too',
} as const;
/** What the screen sends. */
export type UpdatePaymentSettingsRequest = z.input<typeof UpdatePaymentSettingsSchema>;
/** What the server applies (validated). */
export type UpdatePaymentSettings = z.output<typeof UpdatePaymentSettingsSchema>;

/** GET /api/admin/payments/connection: whether BTCPay Server answers for the store. */
export const PaymentConnectionSchema = z
  .object({
    configured: z.boolean(),
    reachable: z.boolean(),
    /** The store's name as BTCPay Server has it, when it answered. */
    storeName: z.string().nullable(),
    /** Why not, in words. */
    error: z.string().nullable(),
    checkedAt: z.string(),
  })
  .meta({ id: 'PaymentConnection' });
export type PaymentConnection = z.infer<typeof PaymentConnectionSchema>;

// ---------------------------------------------------------------- admin: orders

/** What a webhook delivery did. */
export const WEBHOOK_OUTCOMES = [
  /** The order was marked paid and its code created. */
  'paid',
  /** Already paid (a redelivery, a duplicate, or a concurrent twin): nothing changed. */
  'already_paid',
  'expired',
  'invalid',
  /** The invoice is still open (New, Processing): nothing to do yet. */
  'unchanged',
  /** No order has this invoice. */
  'unknown_invoice',
  /** Another store's invoice, or an event this app does not act on. */
  'ignored',
  /** Settled for less than the order's price: no code, the order waits for the operator. */
  'underpaid',
  /** Settled in another currency or for another amount: no code, the order waits for the operator. */
  'mismatch',
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

export const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    deliveryId: z.string(),
    originalDeliveryId: z.string().nullable(),
    isRedelivery: z.union([z.literal(0), z.literal(1)]),
    type: z.string(),
    outcome: z.enum(WEBHOOK_OUTCOMES),
    receivedAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const AdminOrderSchema = z
  .object({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    invoiceId: z.string().nullable(),
    amount: z.string(),
    currency: z.string(),
    keyType: z.enum(REDEMPTION_KEY_TYPES),
    validityHours: z.number().int(),
    maxHardwareBindings: z.number().int(),
    /** The code it produced (masked like Redemption Codes does), and its row there. */
    redemptionCode: z.string().nullable(),
    redemptionKeyId: z.number().int().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
    paidAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    /** underpaid / mismatch (and what the operator did about one): what BTCPay says was paid. */
    received: MoneySchema.nullable(),
    /** Webhook deliveries received for it, newest first. */
    deliveries: z.array(WebhookDeliverySchema),
    /** What BTCPay says beyond the status (processing, partial, late, over), or null. */
    paymentState: z.enum(ORDER_PAYMENT_STATES).nullable(),
    /** Paid late when every slot was taken: the slots are oversold by this order. */
    slotShortfall: z.boolean(),
    /** The buyer's e-mail, masked (j***@example.com), or null when none was given. */
    email: z.string().nullable(),
    /** The code's mail, when there is one to send. */
    mail: z
      .object({
        state: z.enum(ORDER_MAIL_STATES),
        attempts: z.number().int(),
        error: z.string().nullable(),
        sentAt: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'Order' });
export type AdminOrder = z.infer<typeof AdminOrderSchema>;

export const ORDER_LIST_LIMIT = { default: 200, max: 1000 } as const;

/** GET /api/admin/orders?status=&search=&limit= */
export const OrderListQuerySchema = z.object({
  status: z
    .enum(['all', ...ORDER_STATUSES], {
      error: `status must be all, ${ORDER_STATUSES.slice(0, -1).join(', ')} or ${ORDER_STATUSES.at(-1)}`,
    })
    .default('all'),
  /** Case-insensitive contains, over the order id, the invoice id and the code. */
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${ORDER_LIST_LIMIT.max}`)
    .max(ORDER_LIST_LIMIT.max, `limit must be between 1 and ${ORDER_LIST_LIMIT.max}`)
    .default(ORDER_LIST_LIMIT.default),
});
export type OrderListQuery = z.input<typeof OrderListQuerySchema>;

export const OrderListResponseSchema = z
  .object({ orders: z.array(AdminOrderSchema), count: z.number().int(), timestamp: z.string() })
  .meta({ id: 'OrderList' });
export type OrderListResponse = z.infer<typeof OrderListResponseSchema>;

/**
 * POST /api/admin/orders/{id}/resolve, for an underpaid or mismatched order: `issue_code` makes its
 * code as if it had been paid in full; `refunded` records that the payment was given back (no code).
 */
export const ORDER_RESOLUTIONS = ['issue_code', 'refunded'] as const;
export type OrderResolution = (typeof ORDER_RESOLUTIONS)[number];
export const ResolveOrderSchema = z.object(
  {
    action: z.enum(ORDER_RESOLUTIONS, { error: 'action must be issue_code or refunded' }),
  },
  { error: 'Request body must be a JSON object with the action' },
);
export type ResolveOrderRequest = z.infer<typeof ResolveOrderSchema>;
export const ResolveOrderResponseSchema = z.object({ order: AdminOrderSchema }).meta({ id: 'OrderResolved' });
export type ResolveOrderResponse = z.infer<typeof ResolveOrderResponseSchema>;

/** Paid orders and their sum, for the dashboard. */
export const SalesSummarySchema = z.object({
  today: z.object({ orders: z.number().int(), amount: z.number() }),
  week: z.object({ orders: z.number().int(), amount: z.number() }),
  currency: z.string(),
});
export type SalesSummary = z.infer<typeof SalesSummarySchema>;
