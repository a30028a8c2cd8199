import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Payments through BTCPay Server: the connection and what an order delivers (one row; the
 * environment overrides each connection setting), the orders (each holding a slot while its invoice
 * is open, and naming the one code it produced), and every webhook delivery received. The lease
 * table the notifications dispatcher used becomes the cluster's one lease table, which the payments
 * reconciler shares.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_leases').renameTo('leases').execute();

  await db.schema
    .createTable('payment_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('btcpay_url', 'text')
    .addColumn('store_id', 'text')
    .addColumn('api_key', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('key_type', 'text', (c) => c.notNull())
    .addColumn('validity_hours', 'integer', (c) => c.notNull())
    .addColumn('max_hardware_bindings', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) => c.unique())
    .addColumn('checkout_link', 'text')
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('key_type', 'text', (c) => c.notNull())
    .addColumn('validity_hours', 'integer', (c) => c.notNull())
    .addColumn('max_hardware_bindings', 'integer', (c) => c.notNull())
    .addColumn('redemption_key_id', 'integer', (c) => c.unique())
    .addColumn('redemption_code', 'text')
    .addColumn('client_ip', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('checked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('orders_status_expires')
    .on('orders')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema.createIndex('orders_created').on('orders').column('created_at').execute();
  await db.schema.createIndex('orders_paid').on('orders').column('paid_at').execute();

  await withId(db, db.schema.createTable('payment_webhook_deliveries'))
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('original_delivery_id', 'text')
    .addColumn('is_redelivery', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_webhook_deliveries_order')
    .on('payment_webhook_deliveries')
    .columns(['order_id', 'received_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_webhook_deliveries').execute();
  await db.schema.dropTable('orders').execute();
  await db.schema.dropTable('payment_settings').execute();
  await db.schema.alterTable('leases').renameTo('notification_leases').execute();
}
