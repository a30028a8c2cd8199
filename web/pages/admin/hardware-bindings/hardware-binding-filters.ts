import type { BindingStatus, HardwareBinding } from '../../../../common/hardware-bindings.ts';
import type { LicenseKeyType } from '../../../../common/licensing.ts';

export type BindingStatusFilter = BindingStatus | 'all';
export type BindingTypeFilter = LicenseKeyType | 'all';

export interface BindingFilters {
  search: string;
  status: BindingStatusFilter;
  keyType: BindingTypeFilter;
}

/** The four stat cards, over every binding whatever the filters. */
export interface BindingStats {
  total: number;
  active: number;
  revoked: number;
  /** Distinct hardware IDs: one device bound to two keys counts once. */
  uniqueDevices: number;
}

export function bindingStats(bindings: readonly HardwareBinding[]): BindingStats {
  let active = 0;
  const devices = new Set<string>();
  for (const binding of bindings) {
    if (binding.status === 'ACTIVE') active += 1;
    devices.add(binding.hardwareId);
  }
  return { total: bindings.length, active, revoked: bindings.length - active, uniqueDevices: devices.size };
}

/**
 * The licence type filter's family of a binding's key. A premium_24h script key is a premium key
 * that expires after a day, so the PREMIUM filter keeps it instead of hiding it under every type.
 */
function typeFamily(binding: HardwareBinding): LicenseKeyType | null {
  const type = binding.licenseKey?.keyType;
  if (type === undefined) return null;
  return type === 'premium_24h' ? 'PREMIUM' : type;
}

/** Bindings whose device ID, device name, OS or licence key contains `search` (any case) and that pass both filters. */
export function filterBindings(
  bindings: readonly HardwareBinding[],
  filters: BindingFilters,
): HardwareBinding[] {
  const needle = filters.search.trim().toLowerCase();
  return bindings.filter((binding) => {
    if (filters.status !== 'all' && binding.status !== filters.status) return false;
    if (filters.keyType !== 'all' && typeFamily(binding) !== filters.keyType) return false;
    if (!needle) return true;
    return [
      binding.hardwareId,
      binding.deviceInfo?.deviceName,
      binding.deviceInfo?.os,
      binding.licenseKey?.licenseKey,
    ].some((field) => field?.toLowerCase().includes(needle));
  });
}
