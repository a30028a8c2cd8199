import { Loader2 } from 'lucide-react';

/** Shown while the first admin session check runs. */
export function CheckingAuthentication() {
  return (
    <div
      className="flex min-h-screen items-center justify-center gap-3 bg-background text-muted-foreground"
      role="status"
    >
      <Loader2 className="h-5 w-5 animate-spin" />
      <span>Checking authentication...</span>
    </div>
  );
}
