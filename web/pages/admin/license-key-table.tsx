import { Ban, Copy, Eye, EyeOff, LoaderCircle, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { formatDate } from '../../../common/format.ts';
import type { LicenseKey, LicenseKeyStatus, LicenseKeyType } from '../../../common/licensing.ts';
import { maskLicenseKey } from '../../../common/mask.ts';
import { AdminTableHeader } from './admin-table-header.tsx';
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
    <Table>
      <AdminTableHeader columns={COLUMNS} />
      <TableBody>
        {keys === undefined ? (
          <TableRow>
            <TableCell colSpan={COLUMNS.length} className="h-24 text-center text-muted-foreground">
              <LoaderCircle className="mr-2 inline h-4 w-4 animate-spin" />
              Loading license keys...
            </TableCell>
          </TableRow>
        ) : keys.length === 0 ? (
          <TableRow>
            <TableCell colSpan={COLUMNS.length} className="h-24 text-center text-muted-foreground">
              No license keys found
            </TableCell>
          </TableRow>
        ) : (
          keys.map((key) => <LicenseKeyRow key={key.id} licenseKey={key} />)
        )}
      </TableBody>
    </Table>
  );
}

function LicenseKeyRow({ licenseKey: key }: { licenseKey: LicenseKey }) {
  const [revealed, setRevealed] = useState(false);
  return (
    <TableRow data-key-id={key.id}>
      <TableCell className="px-2">
        <div className="flex items-center gap-1">
          <code
            className="whitespace-nowrap rounded bg-muted px-2 py-1 font-mono text-xs"
            data-testid="license-key"
          >
            {revealed ? key.licenseKey : maskLicenseKey(key.licenseKey)}
          </code>
          <Button
            variant="ghost"
            size="icon"
            className="h-7 w-7 shrink-0"
            aria-label={revealed ? 'Hide key' : 'Reveal key'}
            title={revealed ? 'Hide key' : 'Reveal key'}
            aria-pressed={revealed}
            onClick={() => setRevealed((r) => !r)}
          >
            {revealed ? <EyeOff /> : <Eye />}
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="h-7 w-7 shrink-0"
            aria-label="Copy key"
            title="Copy key"
            onClick={() => void copyToClipboard(key.licenseKey, 'The full license key is on your clipboard.')}
          >
            <Copy />
          </Button>
        </div>
        {key.notes && (
          <p className="mt-1 max-w-64 truncate text-xs text-muted-foreground" title={key.notes}>
            {key.notes}
          </p>
        )}
      </TableCell>
      <TableCell className="px-2">
        <Badge variant="outline" className={TYPE_CLASSES[key.keyType]}>
          {key.keyType}
        </Badge>
      </TableCell>
      <TableCell className="px-2">
        <Badge variant="outline" className={STATUS_CLASSES[key.status]}>
          {key.status}
        </Badge>
      </TableCell>
      <TableCell className="px-2 tabular-nums">
        {key.activeBindings}/{key.maxBindings}
      </TableCell>
      <TableCell className="px-2 tabular-nums">{key.usageCount}</TableCell>
      <DateCell value={key.lastUsed} />
      <DateCell value={key.expiresAt} />
      <DateCell value={key.createdAt} />
      <TableCell className="px-2">
        <div className="flex justify-end gap-1">
          {key.status === 'ACTIVE' && <RevokeButton licenseKey={key} />}
          <DeleteButton licenseKey={key} />
        </div>
      </TableCell>
    </TableRow>
  );
}

/** A date that may wrap only between the day and the time ("Nov 22, 2026," / "01:38 AM"). */
function DateCell({ value }: { value: string | null }) {
  const text = formatDate(value);
  const cut = text.lastIndexOf(', ');
  return (
    <TableCell className="px-2 text-xs text-muted-foreground">
      {cut < 0 ? (
        <span className="whitespace-nowrap">{text}</span>
      ) : (
        <>
          <span className="whitespace-nowrap">{text.slice(0, cut + 1)}</span>{' '}
          <span className="whitespace-nowrap">{text.slice(cut + 2)}</span>
        </>
      )}
    </TableCell>
  );
}

function RevokeButton({ licenseKey: key }: { licenseKey: LicenseKey }) {
  const revoke = useRevokeLicenseKey();
  return (
    <ConfirmActionButton
      icon={<Ban />}
      label="Revoke key"
      className="text-amber-300 hover:text-amber-200"
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
      className="text-red-400 hover:text-red-300"
      title="Delete this license key?"
      description={`${maskLicenseKey(key.licenseKey)} and its device bindings are removed for good. This cannot be undone.`}
      confirmLabel="Delete Key"
      onConfirm={() => remove.mutate(key.id)}
      pending={remove.isPending}
    />
  );
}
