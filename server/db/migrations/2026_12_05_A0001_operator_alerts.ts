import type { Kysely } from 'kysely';
import { withId } from '../column.ts';

/*
 * Operator alerts (issue 38): a destination can be marked for alerts (it gets alerts, never finds);
 * the outbox carries alerts beside finds (`item`), an alert's row keyed by minus its id so the
 * (destination, item) key never meets a find's seq; the alerts raised; and, per alert kind, the state
 * last alerted and the differing state being watched (the hysteresis), so a restart or a second
 * instance never alerts twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notification_destinations')
    .addColumn('alerts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('notification_outbox')
    .addColumn('item', 'text', (c) => c.notNull().defaultTo('find'))
    .execute();

  await withId(db, db.schema.createTable('operator_alerts'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('previous_state', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('raised_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('operator_alert_states')
    .addColumn('kind', 'text', (c) => c.primaryKey())
    .addColumn('alerted_state', 'text', (c) => c.notNull())
    .addColumn('alerted_at', 'bigint', (c) => c.notNull())
    .addColumn('observed_state', 'text')
    .addColumn('diverged_since', 'bigint')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_alert_states').execute();
  await db.schema.dropTable('operator_alerts').execute();
  await db.schema.alterTable('notification_outbox').dropColumn('item').execute();
  await db.schema.alterTable('notification_destinations').dropColumn('alerts').execute();
}
