import type { LicensingChangedPayload } from '../../../common/realtime.ts';
import type { AppContext } from '../../context.ts';

/**
 * Tells every admin dashboard that keys, codes or bindings changed, so the dashboard's figures, slot
 * usage and the licensing lists refresh at once instead of at their next 30 s poll. Called after the
 * commit. The change is saved whatever happens here (and the screens poll anyway), so a bus failure
 * is logged rather than turned into an error the caller would retry.
 */
export async function announceLicensingChanged(
  ctx: AppContext,
  entity: LicensingChangedPayload['entity'],
): Promise<void> {
  try {
    await ctx.services.publisher.toAll('admin', 'licensing_changed', { entity });
  } catch (error) {
    console.error('could not tell the admin dashboards about a licensing change', error);
  }
}
