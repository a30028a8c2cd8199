import { LoaderCircle, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import type { ScriptSummary } from '../../../../common/scripts.ts';
import { useDeleteScript } from './script-mutations.ts';
import { scriptDeleteBlocker } from './script-selection.ts';

/**
 * Delete Script, after a confirmation that says it cannot be undone. Disabled, with the reason
 * beside it, for the last script and for the scripts shipped with the app.
 */
export function ScriptDeleteButton({
  script,
  scriptCount,
  onDeleted,
}: {
  script: ScriptSummary;
  scriptCount: number;
  onDeleted: () => void;
}) {
  const remove = useDeleteScript();
  const blocker = scriptDeleteBlocker(script, scriptCount);
  const noteId = useId();
  return (
    <div className="grid gap-1.5">
      <ConfirmDialog
        trigger={
          <Button
            variant="outline"
            className="text-red-400 hover:text-red-300"
            disabled={blocker !== null || remove.isPending}
            aria-describedby={blocker ? noteId : undefined}
          >
            {remove.isPending ? <LoaderCircle className="animate-spin" /> : <Trash2 />}
            Delete Script
          </Button>
        }
        title={`Delete ${script.name}?`}
        description="This permanently deletes the script and all of its versions. This action cannot be undone, and every loader that fetches this script stops working."
        confirmLabel="Delete Script"
        onConfirm={() => remove.mutate(script.name, { onSuccess: onDeleted })}
      />
      {blocker && (
        <p id={noteId} className="text-xs text-muted-foreground">
          {blocker}
        </p>
      )}
    </div>
  );
}
