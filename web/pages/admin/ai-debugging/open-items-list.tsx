import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { type ListState, ListStateView } from '../shared/list-state.tsx';

/**
 * A tab's list of findings or recommendations. The spec's empty text shows whenever nothing is open
 * (none at all, or all resolved / implemented); settled items stay listed under it, without buttons.
 */
export function OpenItemsList<T extends { id: string }>({
  state,
  label,
  loading,
  empty,
  isOpen,
  children,
}: {
  state: ListState<T>;
  /** The list's accessible name. */
  label: string;
  loading: string;
  empty: string;
  isOpen: (item: T) => boolean;
  children: (item: T) => ReactNode;
}) {
  const emptyNote = (
    <Card>
      <CardContent className="py-10 text-center text-muted-foreground">{empty}</CardContent>
    </Card>
  );
  return (
    <ListStateView state={state} loading={loading} empty={empty}>
      {(items) => (
        <div className="grid gap-4">
          {!items.some(isOpen) && emptyNote}
          <ul aria-label={label} className="grid gap-4">
            {items.map((item) => (
              <li key={item.id}>{children(item)}</li>
            ))}
          </ul>
        </div>
      )}
    </ListStateView>
  );
}
