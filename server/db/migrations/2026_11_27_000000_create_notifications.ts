import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Notifications: where finds are posted (destinations: a Discord webhook or any JSON endpoint, with a
 * value range, pet names and a delay), the outbox of posts to make (one row per destination and find,
 * written in the transaction that stores the find), and the lease that lets one instance dispatch.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('notification_destinations'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('min_value', 'double precision', (c) => c.notNull())
    .addColumn('max_value', 'double precision')
    .addColumn('pet_names', 'text', (c) => c.notNull())
    .addColumn('delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('include_join_data', 'integer', (c) => c.notNull())
    .addColumn('mention_role_id', 'text')
    .addColumn('mention_from_value', 'double precision')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('notification_outbox'))
    .addColumn('destination_id', 'integer', (c) =>
      c.notNull().references('notification_destinations.id').onDelete('cascade'),
    )
    .addColumn('discovery_seq', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('found_at', 'bigint', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('last_error', 'text')
    // The outbox key: a find is posted to a destination once, whoever dispatches.
    .addUniqueConstraint('notification_outbox_destination_find', ['destination_id', 'discovery_seq'])
    .execute();
  await db.schema
    .createIndex('notification_outbox_state_due')
    .on('notification_outbox')
    .columns(['state', 'due_at'])
    .execute();

  await db.schema
    .createTable('notification_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_leases').execute();
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.dropTable('notification_destinations').execute();
}
