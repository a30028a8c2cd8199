import { Loader2 } from 'lucide-react';
import { ServerUnreachableBanner } from './server-unreachable-banner.tsx';

/** Shown while the first admin session check runs; with `offline`, says why it is taking long. */
export function CheckingAuthentication({ offline = false }: { offline?: boolean }) {
  return (
    <div className="flex min-h-screen flex-col bg-background text-muted-foreground">
      {offline && <ServerUnreachableBanner />}
      <div className="flex flex-1 items-center justify-center gap-3" role="status">
        <Loader2 className="h-5 w-5 animate-spin" />
        <span>Checking authentication...</span>
      </div>
    </div>
  );
}
