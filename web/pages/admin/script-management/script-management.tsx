import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, RefreshCw, Rocket } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/cn.ts';
import { toast } from '@/lib/toast.ts';
import { formatDate } from '../../../../common/format.ts';
import type {
  LuaSyntaxErrorResponse,
  Script,
  ScriptSummary,
  ScriptVersion,
} from '../../../../common/scripts.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { useUnsavedChangesGuard } from '../shared/use-unsaved-changes-guard.tsx';
import { CreateScriptDialog } from './create-script-dialog.tsx';
import { ScriptAccessTypeSelect } from './script-access-type.tsx';
import { ScriptDeleteButton } from './script-delete-button.tsx';
import { ScriptDiscardDialog } from './script-discard-dialog.tsx';
import { ScriptEditorCard, type ScriptEditorCardProps } from './script-editor-card.tsx';
import { ScriptLoaderStrings } from './script-loader-strings.tsx';
import { useSaveScript } from './script-mutations.ts';
import { ScriptFacts, ScriptPicker } from './script-picker.tsx';
import { scriptQuery, scriptsQuery, scriptVersionsQuery } from './script-queries.ts';
import { luaSyntaxRefusal } from './script-save-error.ts';
import { selectedScriptName } from './script-selection.ts';
import { ScriptVersionHistory } from './script-version-history.tsx';

/** Edits not yet deployed, and the version they started from (a save on a newer one is refused). */
interface Draft {
  filename: string;
  content: string;
  baseVersion: number;
}

/** The server refused exactly this text of this script for its syntax. */
interface Refusal {
  filename: string;
  content: string;
  refusal: LuaSyntaxErrorResponse;
}

/** What waits for the admin's word because it would replace unsaved edits. */
type PendingReplacement = { kind: 'switch'; filename: string } | { kind: 'load'; version: ScriptVersion };

/** /admin/script-management: edit, version, deploy, create and delete the hosted Lua scripts. */
export default function ScriptManagementPage() {
  const scripts = useQuery(scriptsQuery());
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = scripts.data ? selectedScriptName(scripts.data, chosen) : null;
  const script = useQuery({ ...scriptQuery(selected ?? ''), enabled: selected !== null });
  const versions = useQuery({ ...scriptVersionsQuery(selected ?? ''), enabled: selected !== null });
  const save = useSaveScript();

  const [draft, setDraft] = useState<Draft | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [notes, setNotes] = useState('');
  const [pending, setPending] = useState<PendingReplacement | null>(null);

  const stored = script.data?.name === selected ? script.data : undefined;
  const activeDraft = draft?.filename === selected ? draft : null;
  const editorText = activeDraft?.content ?? stored?.content ?? '';
  const modified = stored !== undefined && editorText !== stored.content;
  const activeRefusal =
    refusal?.filename === selected && refusal.content === editorText ? refusal.refusal : null;
  const summary = scripts.data?.find((s) => s.name === selected);

  // Leaving the screen (sidebar, back, closing the tab) would drop the edits: ask first.
  const leaveQuestion = useUnsavedChangesGuard(modified);

  const editText = (text: string) => {
    if (!stored) return;
    setDraft((current) => {
      // The editor echoes text set from outside; matching what is stored means nothing to keep.
      if (text === stored.content) return null;
      const baseVersion = current?.filename === stored.name ? current.baseVersion : stored.version;
      return { filename: stored.name, content: text, baseVersion };
    });
  };

  const switchTo = (filename: string | null) => {
    setChosen(filename);
    setDraft(null);
    setNotes('');
  };

  const loadVersion = (version: ScriptVersion) => {
    if (!stored) return;
    setDraft({
      filename: stored.name,
      content: version.content,
      baseVersion: activeDraft?.baseVersion ?? stored.version,
    });
    toast({
      title: 'Version Loaded',
      description: `Version ${version.version} from ${formatDate(version.createdAt)}`,
    });
  };

  const requestSwitch = (filename: string) => {
    if (filename === selected) return;
    if (modified) setPending({ kind: 'switch', filename });
    else switchTo(filename);
  };

  const requestLoad = (version: ScriptVersion) => {
    if (modified) setPending({ kind: 'load', version });
    else loadVersion(version);
  };

  const confirmPending = () => {
    if (pending?.kind === 'switch') switchTo(pending.filename);
    if (pending?.kind === 'load') loadVersion(pending.version);
    setPending(null);
  };

  const saveAndDeploy = () => {
    if (!stored || editorText.trim() === '') {
      toast({
        title: 'Save Failed',
        description: 'Please select a script and enter content.',
        variant: 'destructive',
      });
      return;
    }
    const filename = stored.name;
    const content = editorText;
    save.mutate(
      {
        filename,
        content,
        notes: notes.trim() || undefined,
        baseVersion: activeDraft?.baseVersion ?? stored.version,
      },
      {
        onSuccess: ({ version }) => {
          setNotes('');
          setRefusal(null);
          // Deployed text is no longer a draft; edits typed meanwhile now build on the new version.
          setDraft((current) => {
            if (current?.filename !== filename) return current;
            if (current.content === content) return null;
            return { ...current, baseVersion: version.version };
          });
        },
        onError: (error) => {
          const refused = luaSyntaxRefusal(error);
          if (refused) setRefusal({ filename, content, refusal: refused });
        },
      },
    );
  };

  const refreshing = scripts.isFetching || script.isFetching || versions.isFetching;
  const refresh = () => {
    void scripts.refetch();
    if (selected !== null) {
      void script.refetch();
      void versions.refetch();
    }
  };

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Script Management"
        description="Edit, version and deploy the Lua scripts your users load, and choose who may load them."
        className="sm:items-start"
      >
        <div className="flex flex-wrap items-center gap-2">
          <CreateScriptDialog
            existingNames={scripts.data?.map((s) => s.name) ?? []}
            onCreated={requestSwitch}
          />
          <Button variant="outline" onClick={refresh} disabled={refreshing}>
            <RefreshCw className={cn(refreshing && 'animate-spin')} />
            Refresh
          </Button>
          <Button onClick={saveAndDeploy} disabled={!stored || editorText.trim() === '' || save.isPending}>
            {save.isPending ? <LoaderCircle className="animate-spin" /> : <Rocket />}
            Save & Deploy
          </Button>
        </div>
      </AdminPageHeader>

      {scripts.isError && !scripts.data ? (
        <Alert variant="destructive">
          <AlertDescription>
            Failed to load script management. Please try refreshing the page.
          </AlertDescription>
        </Alert>
      ) : !scripts.data ? (
        <ScreenSkeleton />
      ) : !summary || selected === null ? (
        <p className="text-sm text-muted-foreground">No scripts yet. Create one to start.</p>
      ) : (
        <div className="grid min-w-0 gap-6 xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
          <div className="flex min-w-0 flex-col gap-6">
            <Card>
              <CardHeader>
                <CardTitle className="text-lg">Script</CardTitle>
              </CardHeader>
              <CardContent className="grid gap-5">
                <ScriptPicker scripts={scripts.data} selected={selected} onSelect={requestSwitch} />
                <ScriptFacts script={summary} />
                <ScriptAccessTypeSelect script={summary} />
                <ScriptDeleteButton
                  script={summary}
                  scriptCount={scripts.data.length}
                  onDeleted={() => switchTo(null)}
                />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle className="text-lg">Loader Strings</CardTitle>
              </CardHeader>
              <CardContent>
                <ScriptLoaderStrings name={summary.name} accessType={summary.accessType} />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle className="text-lg">Version History</CardTitle>
              </CardHeader>
              <CardContent>
                <ScriptVersionHistory
                  versions={versions.data}
                  error={versions.isError ? errorText(versions.error) : null}
                  currentVersion={summary.version}
                  editorText={editorText}
                  onLoad={requestLoad}
                />
              </CardContent>
            </Card>
          </div>
          <EditorArea
            stored={stored}
            loadError={script.isError ? errorText(script.error) : null}
            summary={summary}
            text={editorText}
            modified={modified}
            refusal={activeRefusal}
            notes={notes}
            onTextChange={editText}
            onNotesChange={setNotes}
            onSave={() => {
              if (!save.isPending) saveAndDeploy();
            }}
          />
        </div>
      )}

      <ScriptDiscardDialog
        action={
          pending?.kind === 'switch'
            ? `Opening ${pending.filename}`
            : pending?.kind === 'load'
              ? `Loading version ${pending.version.version}`
              : null
        }
        onConfirm={confirmPending}
        onCancel={() => setPending(null)}
      />
      {leaveQuestion}
    </div>
  );
}

/** The editor once the script's text is here; its failure or a placeholder until then. */
function EditorArea({
  stored,
  loadError,
  summary,
  ...editor
}: Omit<ScriptEditorCardProps, 'filename'> & {
  stored: Script | undefined;
  loadError: string | null;
  summary: ScriptSummary;
}) {
  if (!stored && loadError) {
    return (
      <Alert variant="destructive" className="self-start">
        <AlertDescription>{loadError}</AlertDescription>
      </Alert>
    );
  }
  if (!stored)
    return <Skeleton className="h-[600px]" aria-busy="true" aria-label={`Loading ${summary.name}`} />;
  // A fresh editor per script: its undo history belongs to one file.
  return <ScriptEditorCard key={stored.name} filename={stored.name} {...editor} />;
}

function ScreenSkeleton() {
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]" aria-busy="true">
      <div className="flex flex-col gap-6">
        <Skeleton className="h-72" />
        <Skeleton className="h-56" />
      </div>
      <Skeleton className="h-[600px]" />
    </div>
  );
}
