import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { apiRequest, getJson } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import {
  ENROLLED_BOTS_URL,
  type EnrolledBot,
  type EnrolledBotsResponse,
  type RevokeEnrollmentResponse,
  revokeEnrollmentUrl,
} from '../../../../common/bot-enrollment.ts';
import { formatDate } from '../../../../common/format.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';
import { invalidateUrls } from '../shared/refresh.ts';

export const ENROLLED_BOTS_TEXTS = {
  title: 'Enrolled Bots',
  description:
    'Bots holding their own credential. Revoking one refuses it on every server at once and disconnects it; its machine may enroll again with the bot token.',
  empty: 'No enrolled bots',
  loadFailure: 'Failed to fetch enrolled bots',
  revokedTitle: 'Credential revoked',
  revoked: ({ ghostId }: RevokeEnrollmentResponse) =>
    `Bot ${ghostId} can no longer connect with its credential.`,
  failureTitle: 'Revoke failed',
  failure: 'Failed to revoke the bot credential',
} as const;

/** Refetched this often while the Scanner Status tab is open (enrollments are rare; last seen moves by the minute). */
export const ENROLLED_BOTS_REFETCH_MS = 15_000;

export function enrolledBotsQuery() {
  return queryOptions({
    queryKey: [ENROLLED_BOTS_URL],
    queryFn: () =>
      getJson<EnrolledBotsResponse>(ENROLLED_BOTS_URL, { failure: ENROLLED_BOTS_TEXTS.loadFailure }),
    refetchInterval: ENROLLED_BOTS_REFETCH_MS,
  });
}

/** Revokes a bot's credential (DELETE /api/admin/fleet/enrollments/{ghostId}); the list and the audit log refetch. */
function useRevokeEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ghostId: string) =>
      apiRequest<RevokeEnrollmentResponse>('DELETE', revokeEnrollmentUrl(ghostId)),
    onSuccess: (revoked) => {
      toast({ title: ENROLLED_BOTS_TEXTS.revokedTitle, description: ENROLLED_BOTS_TEXTS.revoked(revoked) });
    },
    onError: toastFailure(ENROLLED_BOTS_TEXTS.failureTitle, ENROLLED_BOTS_TEXTS.failure),
    onSettled: () => invalidateUrls(queryClient, [ENROLLED_BOTS_URL, QUERY_KEYS.auditLogs]),
  });
}

/**
 * The bots with their own credential (docs/rules-fleet.md, "Bot credentials"): when and from where
 * each enrolled and was last seen, and Revoke (asks first).
 */
export function EnrolledBotsCard() {
  const { data, error } = useQuery(enrolledBotsQuery());
  const revoke = useRevokeEnrollment();
  const bots = data?.enrolledBots;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">{ENROLLED_BOTS_TEXTS.title}</CardTitle>
        <CardDescription>{ENROLLED_BOTS_TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {bots === undefined ? (
          <p className="text-sm text-muted-foreground">{error ? error.message : 'Loading…'}</p>
        ) : bots.length === 0 ? (
          <p className="text-sm text-muted-foreground">{ENROLLED_BOTS_TEXTS.empty}</p>
        ) : (
          <Table aria-label={ENROLLED_BOTS_TEXTS.title}>
            <TableHeader>
              <TableRow>
                <TableHead>Ghost_ID</TableHead>
                <TableHead>Enrolled</TableHead>
                <TableHead>Last Seen</TableHead>
                <TableHead>Address</TableHead>
                <TableHead className="w-12">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {bots.map((bot) => (
                <EnrolledBotRow
                  key={bot.ghostId}
                  bot={bot}
                  revoking={revoke.isPending && revoke.variables === bot.ghostId}
                  onRevoke={() => revoke.mutate(bot.ghostId)}
                />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function EnrolledBotRow({
  bot,
  revoking,
  onRevoke,
}: {
  bot: EnrolledBot;
  revoking: boolean;
  onRevoke: () => void;
}) {
  return (
    <TableRow>
      <TableCell className="font-mono text-xs">{bot.ghostId}</TableCell>
      <TableCell className="whitespace-nowrap">{formatDate(bot.enrolledAt)}</TableCell>
      <TableCell className="whitespace-nowrap">{formatDate(bot.lastSeenAt)}</TableCell>
      {/* An IPv6 address wraps rather than widening the table. */}
      <TableCell className="font-mono text-xs break-all">
        {bot.lastAddress ?? bot.enrolledAddress ?? '—'}
      </TableCell>
      <TableCell>
        <ConfirmActionButton
          icon={<KeyRound />}
          label={`Revoke ${bot.ghostId}`}
          className="text-red-400 hover:text-red-300"
          pending={revoking}
          title={`Revoke the credential of bot ${bot.ghostId}?`}
          description="Its botToken is refused at once on every server and its connection is closed. The bot stays in the fleet's history; its machine can enroll again with the bot token."
          confirmLabel="Revoke"
          onConfirm={onRevoke}
        />
      </TableCell>
    </TableRow>
  );
}
