import type { ColumnType, Generated } from 'kysely';
import type { OrderMailState, OrderPaymentState, OrderStatus } from '../../../common/payments.ts';
import type { RedemptionKeyType } from '../../../common/redemption.ts';

/**
 * The BTCPay Server connection and what a paid order delivers (one row, id 1). A connection setting
 * set in the environment (BTCPAY_URL…) wins over the one stored here.
 */
export interface PaymentSettingsTable {
  id: number;
  btcpay_url: string | null;
  store_id: string | null;
  /** Greenfield API key (sent as `Authorization: token …`); never shown whole, never logged. */
  api_key: string | null;
  /** The webhook's secret (BTCPay-Sig HMAC key); never shown whole, never logged. */
  webhook_secret: string | null;
  /**
   * The webhook secret this one replaced, verifying too until `previous_webhook_secret_expires_at`
   * (BTCPAY_WEBHOOK_SECRET_GRACE_MINUTES after the change); never shown whole, never logged.
   */
  previous_webhook_secret: NullableText;
  previous_webhook_secret_expires_at: NullableNumber;
  /** When a delivery last verified with a previous secret (this one or BTCPAY_WEBHOOK_SECRET_PREVIOUS). */
  previous_webhook_secret_used_at: NullableNumber;
  key_type: RedemptionKeyType;
  validity_hours: number;
  max_hardware_bindings: number;
  updated_at: number;
}

/** Text that may be left out of an insert (null then). */
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;
type NullableNumber = ColumnType<number | null, number | null | undefined, number | null>;

/** A buyer's order: one BTCPay invoice, and once it settles exactly one redemption code. */
export interface OrdersTable {
  /** Public id (random, URL-safe): /order/{id}. */
  id: string;
  /** SHA-256 (hex) of the order's 128-bit secret, which only the buyer's URL fragment holds. */
  secret_hash: string;
  status: OrderStatus;
  /** Null until BTCPay answered the invoice's creation. */
  invoice_id: string | null;
  checkout_link: string | null;
  /** Decimal text as BTCPay takes it ('40'). */
  amount: string;
  currency: string;
  /** What the order delivers, fixed when it was placed. */
  key_type: RedemptionKeyType;
  validity_hours: number;
  max_hardware_bindings: number;
  /** The code it produced; unique, so an order can never make two. */
  redemption_key_id: number | null;
  redemption_code: string | null;
  client_ip: string | null;
  /** The client's network (its IPv4 address, or its IPv6 /64): one pending order per network. */
  client_network: string | null;
  created_at: number;
  /**
   * A pending order holds a slot until this: ORDER_HOLD_MINUTES after it was placed, its invoice's
   * expiry once the buyer opened the checkout, longer while a payment confirms.
   */
  expires_at: number;
  /** When its BTCPay invoice expires (null until BTCPay created it). */
  invoice_expires_at: number | null;
  /** When the buyer first opened its checkout (GET /api/public/orders/{id}/checkout). */
  checkout_opened_at: number | null;
  paid_at: number | null;
  /** When it became expired or invalid. */
  ended_at: number | null;
  /** When the reconciler last read its invoice. */
  checked_at: number | null;
  /** underpaid / mismatch: what BTCPay says was paid (decimal text) and in which currency. */
  received_amount: NullableText;
  received_currency: NullableText;
  /** The e-mail the buyer gave at Pay now (optional): this order's mail and lookup only; never logged. */
  buyer_email: NullableText;
  /** The order link (with its secret), sealed with the buyer's e-mail (order-recovery.ts). */
  sealed_link: NullableText;
  /** What BTCPay says beyond the status (OrderPaymentState): processing, partial, late, over. */
  payment_state: ColumnType<
    OrderPaymentState | null,
    OrderPaymentState | null | undefined,
    OrderPaymentState | null
  >;
  /** 1: paid late when every slot was taken (the operator is told). */
  slot_shortfall: NullableNumber;
  /** The code's mail: due (to send or retry), sent, failed (given up); null without an e-mail or SMTP. */
  mail_state: ColumnType<OrderMailState | null, OrderMailState | null | undefined, OrderMailState | null>;
  mail_attempts: NullableNumber;
  /** When the mail is due (again). */
  mail_next_at: NullableNumber;
  /** An instance sending the mail holds it until this (two instances never both send it). */
  mail_claimed_until: NullableNumber;
  /** Why the last attempt failed (the SMTP server's answer, without the address). */
  mail_error: NullableText;
  mail_sent_at: NullableNumber;
}

/** Every webhook delivery received with a valid signature, and what it did. */
export interface PaymentWebhookDeliveriesTable {
  id: Generated<number>;
  delivery_id: string;
  original_delivery_id: string | null;
  is_redelivery: number;
  /** InvoiceSettled, InvoiceExpired… as BTCPay names it. */
  event_type: string;
  invoice_id: string | null;
  order_id: string | null;
  /** WebhookOutcome: what the delivery changed. */
  outcome: string;
  received_at: number;
}

/** Webhook posts with a missing or wrong signature, counted per address and minute (one audit row each). */
export interface PaymentWebhookRejectionsTable {
  ip: string;
  /** The minute's start, epoch milliseconds. */
  minute: number;
  count: number;
  /** The webhook_rejected audit row whose details carry the count. */
  audit_log_id: number | null;
}
