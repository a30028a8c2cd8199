import { HardDrive, Laptop, type LucideIcon, Monitor, Smartphone, Tablet, Unlink } from 'lucide-react';
import { memo } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import {
  type BindingStatus,
  type DeviceInfo,
  type HardwareBinding,
  hardwareIdKind,
  NO_DEVICE_NAME,
} from '../../../../common/hardware-bindings.ts';
import { shortLicenseKey } from '../../../../common/mask.ts';
import {
  CopyValueButton,
  CutText,
  DateCell,
  LoadingRow,
  MessageRow,
  MiddleCutText,
} from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { useRevokeBinding } from './binding-mutations.ts';

const COLUMNS = [
  'Device Info',
  'Hardware ID',
  'License Key',
  'Status',
  'First Bound',
  'Last Used',
  'Actions',
];

/** The characters of a hardware ID that stay in view however narrow its column. */
const HARDWARE_ID_TAIL = 8;

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
    <AdminTable columns={COLUMNS}>
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
    </AdminTable>
  );
}

// Memoised: polling keeps unchanged bindings as the same objects, so only changed rows re-render.
const BindingRow = memo(function BindingRow({ binding }: { binding: HardwareBinding }) {
  return (
    <AdminRow data-binding-id={binding.id}>
      {/* Up to 16rem where the window allows: the name and platform before the other columns' spare room. */}
      <AdminCell label="Device Info" wide className="md:w-64">
        <DeviceCell device={binding.deviceInfo} hardwareId={binding.hardwareId} />
      </AdminCell>
      {/* Cut in its middle to the column's width (its last characters stay in view), whole in the
          tooltip and on the clipboard. */}
      <AdminCell label="Hardware ID" className="md:w-44">
        <div className="flex w-0 min-w-full items-center gap-1">
          <code className="flex min-w-0 flex-1 rounded bg-muted px-2 py-1 font-mono text-xs">
            <MiddleCutText
              value={binding.hardwareId}
              tail={binding.hardwareId.slice(-HARDWARE_ID_TAIL)}
              className="flex-1"
            />
          </code>
          <CopyValueButton
            value={binding.hardwareId}
            label="Copy hardware ID"
            what="The whole hardware ID is on your clipboard."
          />
        </div>
      </AdminCell>
      <AdminCell label="License Key">
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
      </AdminCell>
      <AdminCell label="Status">
        <Badge variant="outline" className={STATUS_CLASSES[binding.status]}>
          {binding.status}
        </Badge>
      </AdminCell>
      <DateCell label="First Bound" value={binding.firstBindDate} />
      <DateCell label="Last Used" value={binding.lastUsedDate} />
      <ActionsCell>{binding.status === 'ACTIVE' && <RevokeButton binding={binding} />}</ActionsCell>
    </AdminRow>
  );
});

/**
 * What the binding says of its device: the name the executor sent, or 'Unknown Device' with the
 * reason in its tooltip; under it the OS and architecture, or else what kind of id bound it.
 */
function DeviceCell({ device, hardwareId }: { device: DeviceInfo | null; hardwareId: string }) {
  const Icon = deviceIcon(device?.deviceType);
  const platform = [device?.os, device?.architecture].filter(Boolean).join(' · ');
  const idKind = hardwareIdKind(hardwareId);
  return (
    // A long name or platform is cut (whole in its tooltip): the column keeps at least 8rem.
    <div className="flex min-w-32 items-center gap-2">
      <Icon
        className="h-5 w-5 shrink-0 text-muted-foreground"
        role="img"
        aria-label={device?.deviceType || 'Unknown device type'}
      />
      <div className="min-w-0 flex-1">
        {device?.deviceName ? (
          <CutText text={device.deviceName} className="font-medium" />
        ) : (
          <p className="w-0 min-w-full truncate font-medium text-muted-foreground" title={NO_DEVICE_NAME}>
            Unknown Device
          </p>
        )}
        {platform ? (
          <CutText text={platform} className="text-xs text-muted-foreground" />
        ) : (
          <p className="w-0 min-w-full truncate text-xs text-muted-foreground" title={idKind.explanation}>
            {idKind.label}
          </p>
        )}
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
      className="h-7 w-7 text-red-400 hover:text-red-300"
      title="Revoke this hardware binding?"
      description={`${device} will no longer be able to use ${key} until it is bound again.`}
      confirmLabel="Revoke Binding"
      onConfirm={() => revoke.mutate(binding.id)}
      pending={revoke.isPending}
    />
  );
}
