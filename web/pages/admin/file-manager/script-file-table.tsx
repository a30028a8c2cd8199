import { format } from 'date-fns';
import { Copy, Lock, Trash2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { specToast, toast } from '@/lib/toast.ts';
import { formatFileSize } from '../../../../common/format.ts';
import { SCRIPT_TEXTS, type ScriptFileRecord, type ScriptLocation } from '../../../../common/scripts.ts';
import { MessageRow, MiddleCutText } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { useDeleteScriptFile } from './file-mutations.ts';

const COLUMNS = ['Filename', 'Location', 'Size', 'Modified', 'URL', 'Actions'];
const LOADING_ROWS = 3;

/** The spec's format for the Modified column ('MMM d, yyyy h:mm a'), in its two parts. */
const MODIFIED_DAY = 'MMM d, yyyy';
const MODIFIED_TIME = 'h:mm a';

/** When a file was modified: the day over the time in the table, so the column stays narrow. */
function ModifiedText({ seconds }: { seconds: number }) {
  const date = new Date(seconds * 1000);
  return (
    <>
      <span className="whitespace-nowrap md:block">{format(date, MODIFIED_DAY)}</span>{' '}
      <span className="whitespace-nowrap md:block">{format(date, MODIFIED_TIME)}</span>
    </>
  );
}

const LOCATION_BADGES: Record<ScriptLocation, { label: string; className: string }> = {
  project: { label: 'Project', className: 'border-sky-500/40 bg-sky-500/15 text-sky-300' },
  'hosted-scripts': {
    label: 'Hosted',
    className: 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400',
  },
};

const DELETE_WARNING =
  'Are you sure you want to delete the file? This action cannot be undone and will break any scripts using this URL.';

/** Every script file, shipped and hosted. `files` undefined means still loading. */
export function ScriptFileTable({ files }: { files: ScriptFileRecord[] | undefined }) {
  return (
    <AdminTable columns={COLUMNS} busy={files === undefined}>
      {files === undefined ? (
        Array.from({ length: LOADING_ROWS }, (_, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
          <AdminRow key={row} data-testid="file-row-placeholder">
            {COLUMNS.map((column) => (
              <AdminCell key={column} label={column}>
                <Skeleton className="h-5 w-full min-w-12" />
              </AdminCell>
            ))}
          </AdminRow>
        ))
      ) : files.length === 0 ? (
        <MessageRow columns={COLUMNS.length}>
          No files found. Upload your first .lua script file above.
        </MessageRow>
      ) : (
        files.map((file) => <ScriptFileRow key={`${file.location}:${file.id}`} file={file} />)
      )}
    </AdminTable>
  );
}

function ScriptFileRow({ file }: { file: ScriptFileRecord }) {
  const badge = LOCATION_BADGES[file.location];
  const downloadUrl = `${window.location.origin}${file.url}`;
  return (
    <AdminRow data-filename={file.filename}>
      <AdminCell label="Filename" wide>
        {/* The badge wraps under a long name instead of squeezing it to a column of letters. */}
        <div className="flex min-w-28 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="break-all font-mono text-sm">{file.filename}</span>
          {!file.isPublic && (
            <Badge
              variant="outline"
              className="border-amber-500/40 bg-amber-500/15 text-amber-300"
              title="Private: requires authentication"
            >
              <Lock className="h-3 w-3" aria-hidden="true" />
              Private
            </Badge>
          )}
        </div>
      </AdminCell>
      <AdminCell label="Location">
        <Badge variant="outline" className={badge.className}>
          {badge.label}
        </Badge>
      </AdminCell>
      <AdminCell label="Size" className="whitespace-nowrap tabular-nums">
        {formatFileSize(file.fileSize)}
      </AdminCell>
      <AdminCell label="Modified" className="text-xs text-muted-foreground">
        <ModifiedText seconds={file.uploadedAt} />
      </AdminCell>
      <AdminCell label="URL" wide className="md:w-60">
        <div className="flex min-w-24 items-center gap-1">
          {/* Cut in its middle to its column's width (up to 15rem, less in a narrow window), never
              widening it: the origin and path give way, the file name stays; whole in the tooltip. */}
          <code
            className="flex w-0 min-w-0 flex-1 rounded bg-muted px-2 py-1 font-mono text-xs"
            data-testid="file-url"
          >
            <MiddleCutText
              value={downloadUrl}
              tail={downloadUrl.slice(downloadUrl.lastIndexOf('/') + 1)}
              className="flex-1"
            />
          </code>
          <Button
            variant="ghost"
            size="icon"
            className="h-7 w-7 shrink-0"
            aria-label={`Copy URL of ${file.filename}`}
            title="Copy URL"
            onClick={() =>
              void copyToClipboard(downloadUrl, `The URL of ${file.filename} is on your clipboard.`)
            }
          >
            <Copy />
          </Button>
        </div>
      </AdminCell>
      <ActionsCell>
        {file.location === 'project' ? <ProjectFileDeleteButton /> : <DeleteFileButton file={file} />}
      </ActionsCell>
    </AdminRow>
  );
}

function DeleteFileButton({ file }: { file: ScriptFileRecord }) {
  const remove = useDeleteScriptFile();
  return (
    <ConfirmActionButton
      icon={<Trash2 />}
      label={`Delete ${file.filename}`}
      className="h-7 w-7 text-red-400 hover:text-red-300"
      title={`Delete ${file.filename}?`}
      description={DELETE_WARNING}
      confirmLabel="Delete File"
      onConfirm={() => remove.mutate(file)}
      pending={remove.isPending}
    />
  );
}

/**
 * Shipped files cannot be deleted: the button looks disabled but stays focusable and clickable, so
 * the admin is told why instead of facing a dead control.
 */
function ProjectFileDeleteButton() {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="h-7 w-7 cursor-not-allowed text-muted-foreground opacity-50 hover:bg-transparent"
      aria-disabled="true"
      aria-label="Delete (project files cannot be deleted)"
      title={SCRIPT_TEXTS.projectFileDelete}
      onClick={() =>
        toast({
          ...specToast('Cannot Delete: Project files cannot be deleted from the file manager'),
          variant: 'destructive',
        })
      }
    >
      <Trash2 />
    </Button>
  );
}
