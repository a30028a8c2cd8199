import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';

/** A polled list as a tab gets it: undefined until the first answer; the error text when asking failed. */
export interface ListState<T> {
  data: readonly T[] | undefined;
  error: string | null;
}

/**
 * A tab's list in its four states: the error (when there is nothing older to show), a loading line,
 * the empty text, or `children` with the items.
 */
export function ListStateView<T>({
  state,
  loading,
  empty,
  children,
}: {
  state: ListState<T>;
  loading: string;
  empty: string;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (state.error && !state.data) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{state.error}</AlertDescription>
      </Alert>
    );
  }
  if (!state.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-busy="true">
        <LoaderCircle className="h-4 w-4 animate-spin" />
        {loading}
      </p>
    );
  }
  if (state.data.length === 0) {
    return (
      <Card>
        <CardContent className="py-10 text-center text-muted-foreground">{empty}</CardContent>
      </Card>
    );
  }
  return children(state.data);
}
