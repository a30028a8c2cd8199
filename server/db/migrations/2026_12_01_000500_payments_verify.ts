import type { Kysely } from 'kysely';

/*
 * Payments verify what they are told: an order whose settled invoice does not match its price
 * keeps what BTCPay says was paid (underpaid / mismatch, shown to the operator), and forged webhook
 * posts are counted per address and minute, one audit row each, rather than a row per post.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('received_amount', 'text').execute();
  await db.schema.alterTable('orders').addColumn('received_currency', 'text').execute();

  await db.schema
    .createTable('payment_webhook_rejections')
    .addColumn('ip', 'text', (c) => c.notNull())
    // The minute's start, epoch milliseconds.
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    // The audit row that carries the count.
    .addColumn('audit_log_id', 'integer')
    .addPrimaryKeyConstraint('payment_webhook_rejections_pk', ['ip', 'minute'])
    .execute();
  await db.schema
    .createIndex('payment_webhook_rejections_minute')
    .on('payment_webhook_rejections')
    .column('minute')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_webhook_rejections').execute();
  await db.schema.alterTable('orders').dropColumn('received_currency').execute();
  await db.schema.alterTable('orders').dropColumn('received_amount').execute();
}
