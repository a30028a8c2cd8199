import type { Kysely } from 'kysely';

/*
 * Delivery lanes (issue 35): each destination keeps finds for a maximum age (null: the default for
 * its tier) and either drops older ones (state 'dropped', counted) or posts them marked late; the
 * outbox carries each find's value tier (its order of magnitude: a lane catches up dearest tier
 * first, newest first within a tier) and what the destination
 * answered for it (Discord's message id, from `?wait=true`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_destinations').addColumn('max_age_seconds', 'integer').execute();
  await db.schema
    .alterTable('notification_destinations')
    .addColumn('late_mode', 'text', (c) => c.notNull().defaultTo('drop'))
    .execute();
  await db.schema
    .alterTable('notification_outbox')
    .addColumn('value_tier', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('notification_outbox').addColumn('remote_id', 'text').execute();
  // The pending ones get their find's tier, so a backlog left from before goes out dearest first.
  const pending = await db
    .selectFrom('notification_outbox')
    .select(['id', 'payload'])
    .where('state', '=', 'pending')
    .execute();
  for (const row of pending) {
    let value = 0;
    try {
      const parsed = JSON.parse(row.payload) as { numericValue?: unknown };
      if (typeof parsed.numericValue === 'number' && Number.isFinite(parsed.numericValue)) {
        value = parsed.numericValue;
      }
    } catch {
      // Unreadable: the dispatcher marks it failed; its value does not matter.
    }
    // As the outbox writer computes it (notification-outbox.ts valueTierOf): migrations import no feature.
    const tier = value >= 1 ? Math.floor(Math.log10(value)) : 0;
    if (tier !== 0) {
      await db
        .updateTable('notification_outbox')
        .set({ value_tier: tier })
        .where('id', '=', row.id)
        .execute();
    }
  }
  await db.schema
    .createIndex('notification_outbox_lane')
    .on('notification_outbox')
    .columns(['destination_id', 'state', 'due_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notification_outbox_lane').execute();
  await db.schema.alterTable('notification_outbox').dropColumn('remote_id').execute();
  await db.schema.alterTable('notification_outbox').dropColumn('value_tier').execute();
  await db.schema.alterTable('notification_destinations').dropColumn('late_mode').execute();
  await db.schema.alterTable('notification_destinations').dropColumn('max_age_seconds').execute();
}
