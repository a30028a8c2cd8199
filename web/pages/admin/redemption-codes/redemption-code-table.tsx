import { Trash2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { MaskedSecret } from '@/components/masked-secret.tsx';
import {
  maskRedemptionCode,
  type RedemptionKey,
  type RedemptionStatus,
  redemptionStatus,
} from '../../../../common/redemption.ts';
import { DateCell, LoadingRow, MessageRow, RowNotes } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { KeyTypeBadge, StatusBadge } from '../shared/key-badges.tsx';
import { useDeleteRedemptionCode } from './redemption-mutations.ts';

const COLUMNS = ['Redemption Code', 'Type', 'Status', 'Max Bindings', 'Created', 'Redeemed', 'Actions'];

const STATUS_TONES = { Available: 'good', Redeemed: 'info', Expired: 'warn' } as const satisfies Record<
  RedemptionStatus,
  string
>;

/** The code list. `codes` undefined means still loading. */
export function RedemptionCodeTable({ codes }: { codes: RedemptionKey[] | undefined }) {
  return (
    <AdminTable columns={COLUMNS}>
      {codes === undefined ? (
        <LoadingRow columns={COLUMNS.length}>Loading redemption codes...</LoadingRow>
      ) : codes.length === 0 ? (
        <MessageRow columns={COLUMNS.length}>No redemption codes found</MessageRow>
      ) : (
        codes.map((code) => <RedemptionCodeRow key={code.id} code={code} />)
      )}
    </AdminTable>
  );
}

function RedemptionCodeRow({ code }: { code: RedemptionKey }) {
  const status = redemptionStatus(code);
  return (
    <AdminRow data-code-id={code.id}>
      <AdminCell label="Redemption Code" wide>
        <MaskedSecret
          value={code.redemptionCode}
          mask={maskRedemptionCode}
          noun="code"
          copiedText="The full redemption code is on your clipboard."
          testId="redemption-code"
        />
        <RowNotes notes={code.notes} />
      </AdminCell>
      <AdminCell label="Type">
        <KeyTypeBadge type={code.keyType} />
      </AdminCell>
      <AdminCell label="Status">
        <StatusBadge tone={STATUS_TONES[status]}>{status}</StatusBadge>
      </AdminCell>
      <AdminCell label="Max Bindings" className="tabular-nums">
        {code.maxHardwareBindings}
      </AdminCell>
      <DateCell label="Created" value={code.createdAt} />
      <DateCell label="Redeemed" value={code.redeemedAt} />
      <ActionsCell>
        <DeleteCodeButton code={code} />
      </ActionsCell>
    </AdminRow>
  );
}

function DeleteCodeButton({ code }: { code: RedemptionKey }) {
  const remove = useDeleteRedemptionCode();
  return (
    <ConfirmActionButton
      icon={<Trash2 />}
      label="Delete code"
      className="h-7 w-7 text-red-400 hover:text-red-300"
      title="Delete this redemption code?"
      description={`${maskRedemptionCode(code.redemptionCode)} is removed for good. This cannot be undone.`}
      confirmLabel="Delete Code"
      onConfirm={() => remove.mutate(code.id)}
      pending={remove.isPending}
    />
  );
}
