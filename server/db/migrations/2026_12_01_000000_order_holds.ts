import type { Kysely } from 'kysely';

/*
 * Slots are held by buyers, not by strangers: each order records the client network it came from
 * (an IPv4 address, or an IPv6 /64), so one network holds one pending order at a time; its invoice's
 * expiry, which its short hold grows to once the buyer opens the checkout; and when that happened.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('client_network', 'text').execute();
  await db.schema.alterTable('orders').addColumn('invoice_expires_at', 'bigint').execute();
  await db.schema.alterTable('orders').addColumn('checkout_opened_at', 'bigint').execute();
  // Orders placed before held their slot until their invoice expired.
  await db
    .updateTable('orders')
    .set((eb) => ({ invoice_expires_at: eb.ref('expires_at') }))
    .where('invoice_id', 'is not', null)
    .execute();
  await db.schema
    .createIndex('orders_network_status')
    .on('orders')
    .columns(['client_network', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_network_status').execute();
  await db.schema.alterTable('orders').dropColumn('checkout_opened_at').execute();
  await db.schema.alterTable('orders').dropColumn('invoice_expires_at').execute();
  await db.schema.alterTable('orders').dropColumn('client_network').execute();
}
