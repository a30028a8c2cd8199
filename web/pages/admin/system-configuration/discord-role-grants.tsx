import { useQuery } from '@tanstack/react-query';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { DiscordRoleGrant } from '../../../../common/discord.ts';
import { DateCell, LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { errorText } from '../shared/error-text.ts';
import { discordRoleGrantsQuery } from './discord-queries.ts';

/*
 * The Discord tab's "Premium role" card: who holds (or is being given, or losing) the premium role,
 * and every change Discord refused, with its error in plain words and when it is tried again.
 */

const COLUMNS = ['Discord user', 'State', 'Attempts', 'Last error', 'Next retry'];

const STATE_TEXT: Record<DiscordRoleGrant['state'], string> = {
  pending_add: 'Being given',
  granted: 'Holds the role',
  pending_remove: 'Being taken away',
  removed: 'Taken away',
  failed: 'Failed',
};

export function PremiumRoleCard() {
  const grants = useQuery(discordRoleGrantsQuery());
  const failed = grants.data?.grants.filter((g) => g.state === 'failed').length ?? 0;
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="text-lg">Premium role</CardTitle>
          {failed > 0 && (
            <Badge variant="destructive">{`${failed} failed ${failed === 1 ? 'change' : 'changes'}`}</Badge>
          )}
        </div>
        <CardDescription>
          Buyers linked to a running premium key hold the role; it is taken away when the key expires or is
          switched off. A change Discord refused is tried again and shown here with its error.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {grants.isError && !grants.data ? (
          <Alert variant="destructive">
            <AlertTitle>Premium role grants unavailable</AlertTitle>
            <AlertDescription>{errorText(grants.error)}</AlertDescription>
          </Alert>
        ) : (
          <AdminTable columns={COLUMNS} busy={!grants.data}>
            {!grants.data ? (
              <LoadingRow columns={COLUMNS.length}>Loading the role grants...</LoadingRow>
            ) : grants.data.grants.length === 0 ? (
              <MessageRow columns={COLUMNS.length}>Nobody has been given the premium role yet</MessageRow>
            ) : (
              grants.data.grants.map((grant) => <GrantRow key={grantKey(grant)} grant={grant} />)
            )}
          </AdminTable>
        )}
      </CardContent>
    </Card>
  );
}

function grantKey(grant: DiscordRoleGrant): string {
  return `${grant.guildId}:${grant.roleId}:${grant.discordUserId}`;
}

function GrantRow({ grant }: { grant: DiscordRoleGrant }) {
  const failed = grant.state === 'failed';
  return (
    <AdminRow data-discord-user={grant.discordUserId}>
      <AdminCell label="Discord user" className="font-mono">
        {grant.discordUserId}
      </AdminCell>
      <AdminCell label="State">
        <Badge variant={failed ? 'destructive' : grant.state === 'granted' ? 'success' : 'secondary'}>
          {failed ? `Failed to ${grant.action === 'add' ? 'give' : 'take away'}` : STATE_TEXT[grant.state]}
        </Badge>
      </AdminCell>
      <AdminCell label="Attempts" className="tabular-nums">
        {grant.attempts}
      </AdminCell>
      <AdminCell label="Last error" wide className={failed ? 'text-red-300' : undefined}>
        {grant.lastError ?? '—'}
      </AdminCell>
      {failed ? (
        <DateCell label="Next retry" value={grant.retryAt} />
      ) : (
        <AdminCell label="Next retry">—</AdminCell>
      )}
    </AdminRow>
  );
}
