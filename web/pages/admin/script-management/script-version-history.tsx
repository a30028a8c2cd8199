import { History } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatDate } from '../../../../common/format.ts';
import { type ScriptVersion, VERSION_HISTORY_SHOWN } from '../../../../common/scripts.ts';
import { ScriptDiffDialog } from './script-diff-dialog.tsx';

/**
 * The latest versions of the open script, newest first: each can be loaded into the editor (to
 * redeploy it) or compared with the editor's text.
 */
export function ScriptVersionHistory({
  versions,
  error,
  currentVersion,
  editorText,
  onLoad,
}: {
  /** Every version, newest first; undefined while loading. */
  versions: readonly ScriptVersion[] | undefined;
  /** Why the versions could not be fetched, if they could not. */
  error: string | null;
  currentVersion: number;
  editorText: string;
  onLoad: (version: ScriptVersion) => void;
}) {
  if (error && !versions) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {error}
      </p>
    );
  }
  if (!versions) {
    return (
      <div className="grid gap-2" aria-busy="true">
        {Array.from({ length: 3 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
          <Skeleton key={i} className="h-14" />
        ))}
      </div>
    );
  }
  if (versions.length === 0) {
    return <p className="text-sm text-muted-foreground">No version history available</p>;
  }
  return (
    <ol className="grid gap-2">
      {versions.slice(0, VERSION_HISTORY_SHOWN).map((version) => (
        <li
          key={version.id}
          aria-label={`Version ${version.version}`}
          className="grid gap-1 rounded-md border border-input p-3"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex items-center gap-2">
              <span className="text-sm font-medium">Version {version.version}</span>
              {version.version === currentVersion && <Badge variant="secondary">Current</Badge>}
            </div>
            <span className="text-xs text-muted-foreground">{formatDate(version.createdAt)}</span>
          </div>
          <p className="text-xs text-muted-foreground break-words">{version.notes || 'No notes'}</p>
          <div className="flex gap-1">
            <Button
              variant="outline"
              size="sm"
              aria-label={`Load version ${version.version}`}
              onClick={() => onLoad(version)}
            >
              <History />
              Load
            </Button>
            <ScriptDiffDialog version={version} editorText={editorText} />
          </div>
        </li>
      ))}
    </ol>
  );
}
