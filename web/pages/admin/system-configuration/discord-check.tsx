import { Stethoscope } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import type { DiscordCheckResponse } from '../../../../common/discord.ts';
import { errorText } from '../shared/error-text.ts';
import { useCheckDiscord } from './discord-queries.ts';

/*
 * The Discord tab's "Check": the server reads the application and the guild with the bot token and
 * says, in the operator's words, what is missing (a setting, the bot not in the server, no Manage
 * Roles, the premium role above the bot's). The saved settings are checked, not the unsaved draft.
 */

export function DiscordCheck() {
  const check = useCheckDiscord();
  return (
    <section className="grid max-w-2xl gap-3" aria-label="Discord check">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" onClick={() => check.mutate()} disabled={check.isPending}>
          <Stethoscope />
          {check.isPending ? 'Checking…' : 'Check'}
        </Button>
        <p className="text-sm text-muted-foreground">
          Reads the application and the server with the saved bot token and says what is missing.
        </p>
      </div>
      {check.isError && (
        <Alert variant="destructive">
          <AlertTitle>Check failed</AlertTitle>
          <AlertDescription>{errorText(check.error)}</AlertDescription>
        </Alert>
      )}
      {check.data && <CheckResult result={check.data} />}
    </section>
  );
}

function CheckResult({ result }: { result: DiscordCheckResponse }) {
  const found = [
    result.application && `Application: ${result.application.name} (${result.application.id})`,
    result.guild && `Server: ${result.guild.name} (${result.guild.id})`,
  ].filter(Boolean);
  if (result.ok) {
    return (
      <Alert data-testid="discord-check-result">
        <AlertTitle>Everything is in place</AlertTitle>
        <AlertDescription>{found.join(' · ')}</AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" data-testid="discord-check-result">
      <AlertTitle>
        {result.problems.length === 1 ? 'One thing to fix' : `${result.problems.length} things to fix`}
      </AlertTitle>
      <AlertDescription>
        <ul className="list-disc pl-5">
          {result.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
        {found.length > 0 && <p className="mt-2">{found.join(' · ')}</p>}
      </AlertDescription>
    </Alert>
  );
}
