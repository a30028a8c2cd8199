import type { SystemConfiguration } from '../../../../common/system.ts';
import { PaymentWalletsEditor } from './payment-wallets-editor.tsx';
import type { SavedSystemConfiguration } from './system-configuration-queries.ts';
import { sameWallets, type Wallets } from './wallet-draft.ts';

/**
 * The Payment Wallets tab's editor over the page's wallet draft (null: none, the saved wallets show),
 * with each wallet's problem: the one the server found in a saved address, or the one it refused a
 * save for, while the row still holds that address.
 */
export function WalletsTab({
  configuration,
  draft,
  refused,
  saving,
  onDraftChange,
  onSave,
}: {
  configuration: SavedSystemConfiguration;
  draft: Wallets | null;
  /** The wallets the last save was refused for, with why. */
  refused: Record<string, string> | null;
  saving: boolean;
  onDraftChange: (draft: Wallets | null) => void;
  onSave: (configuration: SystemConfiguration) => void;
}) {
  const wallets = draft ?? configuration.paymentWallets;
  const dirty = !sameWallets(wallets, configuration.paymentWallets);
  // A reason holds while its row still has the address it was given for.
  const problems: Record<string, string> = {};
  for (const [code, reason] of Object.entries(configuration.walletProblems ?? {})) {
    if (wallets[code] === configuration.paymentWallets[code]) problems[code] = reason;
  }
  for (const [code, reason] of Object.entries(refused ?? {})) {
    if (code in wallets) problems[code] = reason;
  }
  return (
    <PaymentWalletsEditor
      wallets={wallets}
      problems={problems}
      dirty={dirty}
      saving={saving}
      onChange={onDraftChange}
      onDiscard={() => onDraftChange(null)}
      onSave={() => onSave({ totalSlots: configuration.totalSlots, paymentWallets: wallets })}
    />
  );
}
