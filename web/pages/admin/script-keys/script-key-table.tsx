import { Trash2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { MaskedSecret } from '@/components/masked-secret.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { maskLicenseKey } from '../../../../common/mask.ts';
import {
  SCRIPT_KEY_TYPE_LABELS,
  type ScriptKey,
  type ScriptKeyDisplayStatus,
  scriptKeyDisplayStatus,
} from '../../../../common/script-keys.ts';
import { DateCell, LoadingRow, MessageRow, RowNotes } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { KeyTypeBadge, StatusBadge } from '../shared/key-badges.tsx';
import { GrantResetsButton } from './grant-resets-button.tsx';
import { useDeleteScriptKey, useToggleScriptKeyStatus } from './script-key-mutations.ts';

const COLUMNS = ['Script Key', 'Type', 'Status', 'Usage Count', 'Last Used', 'Created', 'Expires', 'Actions'];

const STATUS_TONES = { Active: 'good', Inactive: 'muted', Expired: 'warn' } as const satisfies Record<
  ScriptKeyDisplayStatus,
  string
>;

/** The key list. `keys` undefined means still loading. */
export function ScriptKeyTable({ keys }: { keys: ScriptKey[] | undefined }) {
  return (
    <AdminTable columns={COLUMNS}>
      {keys === undefined ? (
        <LoadingRow columns={COLUMNS.length}>Loading script keys...</LoadingRow>
      ) : keys.length === 0 ? (
        <MessageRow columns={COLUMNS.length}>No script keys found</MessageRow>
      ) : (
        keys.map((key) => <ScriptKeyRow key={key.id} scriptKey={key} />)
      )}
    </AdminTable>
  );
}

function ScriptKeyRow({ scriptKey: key }: { scriptKey: ScriptKey }) {
  const status = scriptKeyDisplayStatus(key);
  return (
    <AdminRow data-key-id={key.id}>
      <AdminCell label="Script Key" wide>
        <MaskedSecret
          value={key.scriptKey}
          mask={maskLicenseKey}
          noun="key"
          copiedText="The full script key is on your clipboard."
          testId="script-key"
        />
        <RowNotes notes={key.notes} />
        <DiscordUser id={key.discordUserId} />
        {key.isActive === 0 && key.disabledReason && (
          <p className="mt-1 text-xs text-amber-200">{`Switched off automatically: ${key.disabledReason}.`}</p>
        )}
        <ExtraResets count={(key as ScriptKey & { extraResets?: number }).extraResets} />
      </AdminCell>
      <AdminCell label="Type">
        <KeyTypeBadge type={key.scriptType}>{SCRIPT_KEY_TYPE_LABELS[key.scriptType]}</KeyTypeBadge>
      </AdminCell>
      <AdminCell label="Status">
        <StatusBadge tone={STATUS_TONES[status]}>{status}</StatusBadge>
      </AdminCell>
      <AdminCell label="Usage Count" className="tabular-nums">
        {key.usageCount.toLocaleString('en-US')}
      </AdminCell>
      <DateCell label="Last Used" value={key.lastUsed} />
      <DateCell label="Created" value={key.createdAt} />
      <DateCell label="Expires" value={key.expiresAt} />
      <ActionsCell>
        <ActiveSwitch scriptKey={key} />
        <GrantResetsButton scriptKey={key} />
        <DeleteKeyButton scriptKey={key} />
      </ActionsCell>
    </AdminRow>
  );
}

/** The admin's on/off switch; the server flips the stored flag (an expired key stays Expired either way). */
function ActiveSwitch({ scriptKey: key }: { scriptKey: ScriptKey }) {
  const toggle = useToggleScriptKeyStatus();
  return (
    <Switch
      checked={key.isActive === 1}
      disabled={toggle.isPending}
      aria-label="Key active"
      title={key.isActive === 1 ? 'Deactivate key' : 'Activate key'}
      onCheckedChange={() => toggle.mutate(key.id)}
    />
  );
}

function DeleteKeyButton({ scriptKey: key }: { scriptKey: ScriptKey }) {
  const remove = useDeleteScriptKey();
  return (
    <ConfirmActionButton
      icon={<Trash2 />}
      label="Delete key"
      className="h-7 w-7 text-red-400 hover:text-red-300"
      title="Delete this script key?"
      description={`${maskLicenseKey(key.scriptKey)} stops unlocking premium scripts at once and is removed for good. This cannot be undone.`}
      confirmLabel="Delete Key"
      onConfirm={() => remove.mutate(key.id)}
      pending={remove.isPending}
    />
  );
}

/** The key's unused extra device resets, when the list carries them and there are any. */
function ExtraResets({ count }: { count: number | undefined }) {
  if (!count) return null;
  return <p className="mt-1 text-xs text-sky-300">{`${count} extra ${count === 1 ? 'reset' : 'resets'}`}</p>;
}

/** The Discord user the key is linked to (by /redeem or /whitelist), when there is one. */
function DiscordUser({ id }: { id: string | null }) {
  if (!id) return null;
  return (
    <p className="mt-1 text-xs text-indigo-300">
      {'Discord user '}
      <span className="font-mono" data-testid="discord-user">
        {id}
      </span>
    </p>
  );
}
