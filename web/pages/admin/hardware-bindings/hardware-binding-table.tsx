import { HardDrive, Laptop, type LucideIcon, Monitor, Smartphone, Tablet, Unlink } from 'lucide-react';
import { memo } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table.tsx';
import { formatDate } from '../../../../common/format.ts';
import type { BindingStatus, DeviceInfo, HardwareBinding } from '../../../../common/hardware-bindings.ts';
import { LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { AdminTableHeader } from '../shared/admin-table-header.tsx';
import { useRevokeBinding } from './binding-mutations.ts';
import { shortLicenseKey } from './hardware-binding-filters.ts';

const COLUMNS = [
  'Device Info',
  'Hardware ID',
  'License Key',
  'Status',
  'First Bound',
  'Last Used',
  'Actions',
];

const STATUS_CLASSES: Record<BindingStatus, string> = {
  ACTIVE: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
  REVOKED: 'border-red-500/40 bg-red-500/15 text-red-400',
};

const TYPE_CLASSES: Record<string, string> = {
  FREE: 'border-border bg-muted text-muted-foreground',
  PREMIUM: 'border-primary/40 bg-primary/15 text-primary',
  premium_24h: 'border-primary/40 bg-primary/15 text-primary',
  VIP: 'border-fuchsia-500/40 bg-fuchsia-500/15 text-fuchsia-300',
};

/** Device types as executors report them, by the icon that shows them. */
const DEVICE_ICONS: [RegExp, LucideIcon][] = [
  [/tablet|ipad/, Tablet],
  [/mobile|phone|android|ios/, Smartphone],
  [/laptop|notebook/, Laptop],
  [/desktop|pc|computer|workstation/, Monitor],
];

function deviceIcon(deviceType: string | undefined): LucideIcon {
  const type = deviceType?.toLowerCase() ?? '';
  return DEVICE_ICONS.find(([pattern]) => pattern.test(type))?.[1] ?? HardDrive;
}

export type BindingTableState =
  | { kind: 'loading' }
  /** No binding exists at all. */
  | { kind: 'none' }
  | { kind: 'rows'; bindings: HardwareBinding[] };

/** The bindings list: a loading row, one of the two empty states, or the rows. */
export function HardwareBindingTable({ state }: { state: BindingTableState }) {
  return (
    <Table>
      <AdminTableHeader columns={COLUMNS} />
      <TableBody>
        {state.kind === 'loading' ? (
          <LoadingRow columns={COLUMNS.length}>Loading hardware bindings...</LoadingRow>
        ) : state.kind === 'none' ? (
          <MessageRow columns={COLUMNS.length}>No devices have been bound to license keys yet.</MessageRow>
        ) : state.bindings.length === 0 ? (
          <MessageRow columns={COLUMNS.length}>
            <p className="font-medium text-foreground">No hardware bindings found</p>
            <p className="text-xs">Try adjusting your search or filters.</p>
          </MessageRow>
        ) : (
          state.bindings.map((binding) => <BindingRow key={binding.id} binding={binding} />)
        )}
      </TableBody>
    </Table>
  );
}

// Memoised: polling keeps unchanged bindings as the same objects, so only changed rows re-render.
const BindingRow = memo(function BindingRow({ binding }: { binding: HardwareBinding }) {
  return (
    <TableRow data-binding-id={binding.id}>
      <TableCell className="px-2">
        <DeviceCell device={binding.deviceInfo} />
      </TableCell>
      <TableCell className="px-2">
        <code
          className="block max-w-48 truncate rounded bg-muted px-2 py-1 font-mono text-xs"
          title={binding.hardwareId}
        >
          {binding.hardwareId}
        </code>
      </TableCell>
      <TableCell className="px-2">
        {binding.licenseKey ? (
          <div className="flex flex-wrap items-center gap-1.5">
            <code className="whitespace-nowrap font-mono text-xs" title={binding.licenseKey.licenseKey}>
              {shortLicenseKey(binding.licenseKey.licenseKey)}
            </code>
            <Badge variant="outline" className={TYPE_CLASSES[binding.licenseKey.keyType]}>
              {binding.licenseKey.keyType}
            </Badge>
          </div>
        ) : (
          <span className="text-muted-foreground">N/A</span>
        )}
      </TableCell>
      <TableCell className="px-2">
        <Badge variant="outline" className={STATUS_CLASSES[binding.status]}>
          {binding.status}
        </Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap px-2 text-xs text-muted-foreground">
        {formatDate(binding.firstBindDate)}
      </TableCell>
      <TableCell className="whitespace-nowrap px-2 text-xs text-muted-foreground">
        {formatDate(binding.lastUsedDate)}
      </TableCell>
      <TableCell className="px-2">
        <div className="flex justify-end">
          {binding.status === 'ACTIVE' && <RevokeButton binding={binding} />}
        </div>
      </TableCell>
    </TableRow>
  );
});

function DeviceCell({ device }: { device: DeviceInfo | null }) {
  const Icon = deviceIcon(device?.deviceType);
  const platform = [device?.os, device?.architecture].filter(Boolean).join(' · ');
  return (
    <div className="flex items-center gap-2">
      <Icon
        className="h-5 w-5 shrink-0 text-muted-foreground"
        role="img"
        aria-label={device?.deviceType || 'Unknown device type'}
      />
      <div className="min-w-0">
        <p className="truncate font-medium">{device?.deviceName || 'Unknown Device'}</p>
        {platform && <p className="truncate text-xs text-muted-foreground">{platform}</p>}
      </div>
    </div>
  );
}

function RevokeButton({ binding }: { binding: HardwareBinding }) {
  const revoke = useRevokeBinding();
  const device = binding.deviceInfo?.deviceName || 'This device';
  const key = binding.licenseKey
    ? `license key ${shortLicenseKey(binding.licenseKey.licenseKey)}`
    : 'its license key';
  return (
    <ConfirmActionButton
      icon={<Unlink />}
      label="Revoke binding"
      className="text-red-400 hover:text-red-300"
      title="Revoke this hardware binding?"
      description={`${device} will no longer be able to use ${key} until it is bound again.`}
      confirmLabel="Revoke Binding"
      onConfirm={() => revoke.mutate(binding.id)}
      pending={revoke.isPending}
    />
  );
}
