import type { Kysely } from 'kysely';

/*
 * The buyer's whole life after paying: an optional e-mail per order (and, for it, the order link
 * sealed with that e-mail, so the invoice id plus the e-mail find the order page again), the mail
 * that carries the code, and what BTCPay says beyond an invoice's status (a payment confirming,
 * partial, late or over the price).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const columns: Array<[string, 'text' | 'bigint' | 'integer']> = [
    ['buyer_email', 'text'],
    ['sealed_link', 'text'],
    ['payment_state', 'text'],
    ['slot_shortfall', 'integer'],
    ['mail_state', 'text'],
    ['mail_attempts', 'integer'],
    ['mail_next_at', 'bigint'],
    ['mail_claimed_until', 'bigint'],
    ['mail_error', 'text'],
    ['mail_sent_at', 'bigint'],
  ];
  for (const [name, type] of columns) {
    await db.schema.alterTable('orders').addColumn(name, type).execute();
  }
  await db.schema
    .createIndex('orders_mail_due')
    .on('orders')
    .columns(['mail_state', 'mail_next_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_mail_due').execute();
  for (const name of [
    'mail_sent_at',
    'mail_error',
    'mail_claimed_until',
    'mail_next_at',
    'mail_attempts',
    'mail_state',
    'slot_shortfall',
    'payment_state',
    'sealed_link',
    'buyer_email',
  ]) {
    await db.schema.alterTable('orders').dropColumn(name).execute();
  }
}
