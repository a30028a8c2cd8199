import { Trash2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { MaskedSecret } from '@/components/masked-secret.tsx';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table.tsx';
import {
  maskRedemptionCode,
  type RedemptionKey,
  type RedemptionStatus,
  redemptionStatus,
} from '../../../../common/redemption.ts';
import { KeyTypeBadge, StatusBadge } from '../script-keys/script-key-cells.tsx';
import { DateCell, LoadingRow, MessageRow, RowNotes } from '../shared/admin-table-cells.tsx';
import { AdminTableHeader } from '../shared/admin-table-header.tsx';
import { useDeleteRedemptionCode } from './redemption-mutations.ts';

const COLUMNS = ['Redemption Code', 'Type', 'Status', 'Max Bindings', 'Created', 'Redeemed', 'Actions'];

const STATUS_TONES = { Available: 'good', Redeemed: 'info', Expired: 'warn' } as const satisfies Record<
  RedemptionStatus,
  string
>;

/** The code list. `codes` undefined means still loading. */
export function RedemptionCodeTable({ codes }: { codes: RedemptionKey[] | undefined }) {
  return (
    <Table>
      <AdminTableHeader columns={COLUMNS} />
      <TableBody>
        {codes === undefined ? (
          <LoadingRow columns={COLUMNS.length}>Loading redemption codes...</LoadingRow>
        ) : codes.length === 0 ? (
          <MessageRow columns={COLUMNS.length}>No redemption codes found</MessageRow>
        ) : (
          codes.map((code) => <RedemptionCodeRow key={code.id} code={code} />)
        )}
      </TableBody>
    </Table>
  );
}

function RedemptionCodeRow({ code }: { code: RedemptionKey }) {
  const status = redemptionStatus(code);
  return (
    <TableRow data-code-id={code.id}>
      <TableCell className="px-2">
        <MaskedSecret
          value={code.redemptionCode}
          mask={maskRedemptionCode}
          noun="code"
          copiedText="The full redemption code is on your clipboard."
          testId="redemption-code"
        />
        <RowNotes notes={code.notes} />
      </TableCell>
      <TableCell className="px-2">
        <KeyTypeBadge type={code.keyType} />
      </TableCell>
      <TableCell className="px-2">
        <StatusBadge tone={STATUS_TONES[status]}>{status}</StatusBadge>
      </TableCell>
      <TableCell className="px-2 tabular-nums">{code.maxHardwareBindings}</TableCell>
      <DateCell value={code.createdAt} />
      <DateCell value={code.redeemedAt} />
      <TableCell className="px-2">
        <div className="flex justify-end">
          <DeleteCodeButton code={code} />
        </div>
      </TableCell>
    </TableRow>
  );
}

function DeleteCodeButton({ code }: { code: RedemptionKey }) {
  const remove = useDeleteRedemptionCode();
  return (
    <ConfirmActionButton
      icon={<Trash2 />}
      label="Delete code"
      className="text-red-400 hover:text-red-300"
      title="Delete this redemption code?"
      description={`${maskRedemptionCode(code.redemptionCode)} is removed for good. This cannot be undone.`}
      confirmLabel="Delete Code"
      onConfirm={() => remove.mutate(code.id)}
      pending={remove.isPending}
    />
  );
}
