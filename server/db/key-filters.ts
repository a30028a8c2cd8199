import type { ExpressionBuilder } from 'kysely';
import type { Database } from './database.ts';

/**
 * A filter for script_keys queries: leaves out the script keys license keys resolved to, which counts
 * (slots, dashboard figures) take as their license key, so no buyer is counted twice.
 */
export function notALicensesScriptKey(eb: ExpressionBuilder<Database, 'script_keys'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('license_keys')
        .select('license_keys.id')
        .whereRef('license_keys.script_key_id', '=', 'script_keys.id'),
    ),
  );
}
