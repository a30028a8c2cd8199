import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { BindingReset } from '../../../../common/hardware-bindings.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import { DateCell, MessageRow } from '../shared/admin-table-cells.tsx';
import { AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';

const COLUMNS = ['Script Key', 'Reset By', 'IP Address', 'Devices Removed', 'When'];

/**
 * The script keys' device resets (hwid_reset), newest first: each removed every device bound to its
 * key, by the buyer on My key or by an admin.
 */
export function ResetHistory({ resets }: { resets: BindingReset[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Device Resets</CardTitle>
        <CardDescription>
          Script keys whose devices were reset in the last 30 days, newest first.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0 pb-2 sm:px-2">
        <AdminTable columns={COLUMNS}>
          {resets.length === 0 ? (
            <MessageRow columns={COLUMNS.length}>No device resets in the last 30 days</MessageRow>
          ) : (
            resets.map((reset) => (
              <AdminRow key={reset.id}>
                <AdminCell label="Script Key" wide className="font-mono">
                  {maskLicenseKey(reset.scriptKey)}
                </AdminCell>
                <AdminCell label="Reset By">{reset.by === 'buyer' ? 'Buyer (My key)' : 'Admin'}</AdminCell>
                <AdminCell label="IP Address" className="font-mono">
                  {reset.ipAddress ?? 'Unknown'}
                </AdminCell>
                <AdminCell label="Devices Removed" className="tabular-nums">
                  {reset.removed}
                </AdminCell>
                <DateCell label="When" value={reset.resetAt} />
              </AdminRow>
            ))
          )}
        </AdminTable>
      </CardContent>
    </Card>
  );
}
