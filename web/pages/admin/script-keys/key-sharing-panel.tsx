import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { plural } from '@/lib/plural.ts';
import { formatDate } from '../../../../common/format.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import {
  type KeySharingResponse,
  SCRIPT_KEY_TYPE_LABELS,
  type SharedScriptKey,
} from '../../../../common/script-keys.ts';
import { KeyTypeBadge, StatusBadge } from '../shared/key-badges.tsx';
import { CountBadge, ListCardTitle } from '../shared/list-controls.tsx';
import { keySharingQuery } from './script-key-queries.ts';

export const KEY_SHARING_PANEL_TEXTS = {
  title: 'Key sharing',
  loading: 'Loading key sharing...',
  failed: 'Failed to load key sharing. Please try refreshing the page.',
  empty: 'No key was used from more addresses or networks than that.',
  autoDisable: 'Such a key is switched off at once, and its buyer is told why (KEY_SHARING_AUTO_DISABLE).',
  flagOnly: 'Such a key is only shown here: switch it off yourself, or set KEY_SHARING_AUTO_DISABLE=true.',
} as const;

/** What the thresholds are, in words: "Keys used from more than 5 addresses or 3 networks in 24 hours." */
function thresholdsText(answer: KeySharingResponse): string {
  return (
    `Keys used from more than ${plural(answer.addressThreshold, 'address', 'addresses')} or ` +
    `${plural(answer.networkThreshold, 'network', 'networks')} (IPv4 /24, IPv6 /48) in the last ` +
    `${plural(answer.windowHours, 'hour', 'hours')}. ` +
    (answer.autoDisable ? KEY_SHARING_PANEL_TEXTS.autoDisable : KEY_SHARING_PANEL_TEXTS.flagOnly)
  );
}

/** Script Keys' key-sharing signals: the flagged keys, what each did, newest uses first. */
export function KeySharingPanel() {
  const sharing = useQuery(keySharingQuery());
  const answer = sharing.data;
  return (
    <Card data-testid="key-sharing">
      <CardHeader className="gap-2">
        <ListCardTitle query={sharing} refreshLabel="Refresh key sharing">
          <ShieldAlert className="h-5 w-5 text-amber-300" aria-hidden="true" />
          {KEY_SHARING_PANEL_TEXTS.title}
          {answer && <CountBadge count={answer.keys.length} noun="keys flagged" />}
        </ListCardTitle>
        {answer && <CardDescription>{thresholdsText(answer)}</CardDescription>}
      </CardHeader>
      <CardContent className="text-sm">
        {sharing.isError && !answer ? (
          <p role="alert" className="text-red-300">
            {KEY_SHARING_PANEL_TEXTS.failed}
          </p>
        ) : !answer ? (
          <p className="text-muted-foreground">{KEY_SHARING_PANEL_TEXTS.loading}</p>
        ) : answer.keys.length === 0 ? (
          <p className="text-muted-foreground">{KEY_SHARING_PANEL_TEXTS.empty}</p>
        ) : (
          <ul className="grid gap-3">
            {answer.keys.map((key) => (
              <SharedKeyItem key={key.id} sharedKey={key} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function SharedKeyItem({ sharedKey: key }: { sharedKey: SharedScriptKey }) {
  return (
    <li className="rounded-lg border border-amber-500/30 bg-amber-500/5 p-3" data-shared-key-id={key.id}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono">{maskLicenseKey(key.scriptKey)}</span>
        <KeyTypeBadge type={key.scriptType}>{SCRIPT_KEY_TYPE_LABELS[key.scriptType]}</KeyTypeBadge>
        <StatusBadge tone={key.isActive === 1 ? 'good' : 'muted'}>
          {key.isActive === 1 ? 'Active' : 'Switched off'}
        </StatusBadge>
        <span className="tabular-nums">
          {plural(key.addresses, 'address', 'addresses')} · {plural(key.networks, 'network', 'networks')}
        </span>
        <span className="text-muted-foreground">last used {formatDate(key.lastSeen)}</span>
      </div>
      {key.disabledReason && (
        <p className="mt-1 text-xs text-amber-200">{`Switched off automatically: ${key.disabledReason}.`}</p>
      )}
      <details className="mt-2">
        <summary className="cursor-pointer text-muted-foreground">
          Latest {plural(key.uses.length, 'use', 'uses')}
        </summary>
        <ul className="mt-2 grid gap-1 font-mono text-xs">
          {key.uses.map((use) => (
            <li key={use.address} className="flex flex-wrap gap-x-3">
              <span>{use.address}</span>
              <span className="text-muted-foreground">{use.network}</span>
              <span className="text-muted-foreground">
                {formatDate(use.firstSeen)} – {formatDate(use.lastSeen)}
              </span>
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}
