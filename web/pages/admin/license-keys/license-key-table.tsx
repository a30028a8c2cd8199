import { Ban, Trash2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { MaskedSecret } from '@/components/masked-secret.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import type { LicenseKey, LicenseKeyStatus, LicenseKeyType } from '../../../../common/licensing.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import { DateCell, LoadingRow, MessageRow, RowNotes } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { useDeleteLicenseKey, useRevokeLicenseKey } from './license-key-mutations.ts';

const COLUMNS = ['Key', 'Type', 'Status', 'Bindings', 'Usage', 'Last Used', 'Expires', 'Created', 'Actions'];

const TYPE_CLASSES: Record<LicenseKeyType, string> = {
  FREE: 'border-border bg-muted text-muted-foreground',
  PREMIUM: 'border-primary/40 bg-primary/15 text-primary',
  VIP: 'border-fuchsia-500/40 bg-fuchsia-500/15 text-fuchsia-300',
};

const STATUS_CLASSES: Record<LicenseKeyStatus, string> = {
  ACTIVE: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
  EXPIRED: 'border-amber-500/40 bg-amber-500/15 text-amber-300',
  REVOKED: 'border-red-500/40 bg-red-500/15 text-red-400',
};

/** The key list. `keys` undefined means still loading. */
export function LicenseKeyTable({ keys }: { keys: LicenseKey[] | undefined }) {
  return (
    <AdminTable columns={COLUMNS}>
      {keys === undefined ? (
        <LoadingRow columns={COLUMNS.length}>Loading license keys...</LoadingRow>
      ) : keys.length === 0 ? (
        <MessageRow columns={COLUMNS.length}>No license keys found</MessageRow>
      ) : (
        keys.map((key) => <LicenseKeyRow key={key.id} licenseKey={key} />)
      )}
    </AdminTable>
  );
}

function LicenseKeyRow({ licenseKey: key }: { licenseKey: LicenseKey }) {
  return (
    <AdminRow data-key-id={key.id}>
      <AdminCell label="Key" wide>
        <MaskedSecret
          value={key.licenseKey}
          mask={maskLicenseKey}
          noun="key"
          copiedText="The full license key is on your clipboard."
          testId="license-key"
        />
        <RowNotes notes={key.notes} />
      </AdminCell>
      <AdminCell label="Type">
        <Badge variant="outline" className={TYPE_CLASSES[key.keyType]}>
          {key.keyType}
        </Badge>
      </AdminCell>
      <AdminCell label="Status">
        <Badge variant="outline" className={STATUS_CLASSES[key.status]}>
          {key.status}
        </Badge>
      </AdminCell>
      <AdminCell label="Bindings" className="tabular-nums">
        {key.activeBindings}/{key.maxBindings}
      </AdminCell>
      <AdminCell label="Usage" className="tabular-nums">
        {key.usageCount}
      </AdminCell>
      <DateCell label="Last Used" value={key.lastUsed} />
      <DateCell label="Expires" value={key.expiresAt} />
      <DateCell label="Created" value={key.createdAt} />
      <ActionsCell>
        {key.status === 'ACTIVE' && <RevokeButton licenseKey={key} />}
        <DeleteButton licenseKey={key} />
      </ActionsCell>
    </AdminRow>
  );
}

function RevokeButton({ licenseKey: key }: { licenseKey: LicenseKey }) {
  const revoke = useRevokeLicenseKey();
  return (
    <ConfirmActionButton
      icon={<Ban />}
      label="Revoke key"
      className="h-7 w-7 text-amber-300 hover:text-amber-200"
      title="Revoke this license key?"
      description={`${maskLicenseKey(key.licenseKey)} stops working at once on every bound device. A revoked key cannot be activated again.`}
      confirmLabel="Revoke Key"
      onConfirm={() => revoke.mutate(key.id)}
      pending={revoke.isPending}
    />
  );
}

function DeleteButton({ licenseKey: key }: { licenseKey: LicenseKey }) {
  const remove = useDeleteLicenseKey();
  return (
    <ConfirmActionButton
      icon={<Trash2 />}
      label="Delete key"
      className="h-7 w-7 text-red-400 hover:text-red-300"
      title="Delete this license key?"
      description={`${maskLicenseKey(key.licenseKey)} and its device bindings are removed for good. This cannot be undone.`}
      confirmLabel="Delete Key"
      onConfirm={() => remove.mutate(key.id)}
      pending={remove.isPending}
    />
  );
}
