import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Plus, RotateCcw, Save } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import type { ButtonProblemOf } from '@/components/scripts-page/script-section.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { toast } from '@/lib/toast.ts';
import type { ScriptFileRecord } from '../../../../common/scripts.ts';
import type { ScriptsPageConfig } from '../../../../common/scripts-page.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import { allScriptFilesQuery } from '../shared/queries.ts';
import { useUnsavedChangesGuard } from '../shared/use-unsaved-changes-guard.tsx';
import { BrokenButtonsDialog } from './broken-buttons-dialog.tsx';
import { type BrokenButton, brokenButtons, buttonFileProblem } from './button-file-check.ts';
import {
  addButton,
  addSection,
  byOrder,
  canMove,
  deleteButton,
  deleteSection,
  firstConfigProblem,
  moveButton,
  moveSection,
  newButtonId,
  newSectionId,
  prepareForSave,
  sameConfig,
  updateButton,
  updateSection,
} from './scripts-page-draft.ts';
import { ScriptsPageGlobalSettings } from './scripts-page-global-settings.tsx';
import { useResetScriptsPageConfig, useSaveScriptsPageConfig } from './scripts-page-mutations.ts';
import { ScriptsPagePreview } from './scripts-page-preview.tsx';
import { scriptsPageConfigQuery } from './scripts-page-queries.ts';
import { ScriptsPageSectionEditor, type SectionEditorActions } from './scripts-page-section-editor.tsx';

/** /admin/scripts-page-editor: the content of the public /scripts page, edited as a draft and saved whole. */
export default function ScriptsPageEditorPage() {
  const stored = useQuery(scriptsPageConfigQuery());

  return (
    <div className="flex min-w-0 flex-col gap-6">
      {stored.data ? (
        <ScriptsPageEditor saved={stored.data} />
      ) : (
        <>
          <EditorHeader />
          {stored.isError ? (
            <Alert variant="destructive">
              <AlertTitle>Scripts page unavailable</AlertTitle>
              <AlertDescription>
                {`Failed to load configuration: ${errorText(stored.error) || 'Unknown error'}`}
              </AlertDescription>
            </Alert>
          ) : (
            <div className="grid gap-4" aria-busy="true">
              <span className="sr-only">Loading configuration...</span>
              <Skeleton className="h-10 w-80" />
              <Skeleton className="h-40" />
              <Skeleton className="h-40" />
            </div>
          )}
        </>
      )}
    </div>
  );
}

function EditorHeader({ children }: { children?: ReactNode }) {
  return (
    <AdminPageHeader
      title="Scripts Page Editor"
      description="The header, sections and download buttons visitors see on the public scripts page."
    >
      {children}
    </AdminPageHeader>
  );
}

function ScriptsPageEditor({ saved }: { saved: ScriptsPageConfig }) {
  const save = useSaveScriptsPageConfig();
  const reset = useResetScriptsPageConfig();
  const fileListId = useId();
  // null: no edits yet, the editor shows what the server holds.
  const [draft, setDraft] = useState<ScriptsPageConfig | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const config = draft ?? saved;
  const unsaved = draft !== null && !sameConfig(draft, saved);
  const leaveQuestion = useUnsavedChangesGuard(unsaved);
  // The File Manager's files, which file buttons are checked against (no check until they load).
  const files = useQuery(allScriptFilesQuery());
  const hostedFiles = Array.isArray(files.data) ? files.data : null;
  const buttonProblem: ButtonProblemOf = (button) =>
    hostedFiles ? buttonFileProblem(button, hostedFiles) : null;
  const [pendingSave, setPendingSave] = useState<{
    sent: ScriptsPageConfig;
    payload: ScriptsPageConfig;
    broken: BrokenButton[];
  } | null>(null);

  const edit = (change: (config: ScriptsPageConfig) => ScriptsPageConfig) => setDraft(change(config));

  const commitSave = (sent: ScriptsPageConfig, payload: ScriptsPageConfig) =>
    save.mutate(payload, {
      // Edits made while the save was under way stay in the draft.
      onSuccess: () => setDraft((current) => (current === sent ? null : current)),
    });

  const saveChanges = () => {
    const sent = config;
    const payload = prepareForSave(sent);
    const problem = firstConfigProblem(payload);
    if (problem) {
      toast({ title: 'Save Failed', description: problem, variant: 'destructive' });
      return;
    }
    // Buttons that would fail for visitors are named first; the operator decides.
    const broken = hostedFiles ? brokenButtons(payload, hostedFiles) : [];
    if (broken.length > 0) setPendingSave({ sent, payload, broken });
    else commitSave(sent, payload);
  };

  const resetToDefault = () =>
    reset.mutate(undefined, {
      onSuccess: () => {
        setDraft(null);
        setExpanded(new Set());
      },
    });

  const addNewSection = () => {
    const id = newSectionId(config);
    edit((current) => addSection(current, id));
    setExpanded((open) => new Set(open).add(id));
  };

  const toggleExpanded = (id: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const sectionActions = (sectionId: string): SectionEditorActions => ({
    onToggleExpanded: () => toggleExpanded(sectionId),
    onChange: (change) => edit((current) => updateSection(current, sectionId, change)),
    onMove: (direction) => edit((current) => moveSection(current, sectionId, direction)),
    onDelete: () => edit((current) => deleteSection(current, sectionId)),
    onAddButton: () => edit((current) => addButton(current, sectionId, newButtonId(current))),
    onButtonChange: (buttonId, change) =>
      edit((current) => updateButton(current, sectionId, buttonId, change)),
    onButtonMove: (buttonId, direction) =>
      edit((current) => moveButton(current, sectionId, buttonId, direction)),
    onButtonDelete: (buttonId) => edit((current) => deleteButton(current, sectionId, buttonId)),
  });

  const sections = byOrder(config.sections);

  return (
    <>
      <EditorHeader>
        <div className="flex flex-wrap items-center gap-2">
          {unsaved && (
            <Badge variant="outline" className="border-amber-400/40 bg-amber-500/10 text-amber-300">
              Unsaved Changes
            </Badge>
          )}
          <ResetToDefaultButton pending={reset.isPending} onConfirm={resetToDefault} />
          <Button size="sm" disabled={!unsaved || save.isPending} onClick={saveChanges}>
            {save.isPending ? <LoaderCircle className="animate-spin" /> : <Save />}
            Save Changes
          </Button>
        </div>
      </EditorHeader>

      <ScriptFileSuggestions id={fileListId} files={hostedFiles} />

      <Tabs defaultValue="global">
        <TabsList className="flex h-auto w-full flex-wrap justify-start sm:w-auto">
          <TabsTrigger value="global">Global Settings</TabsTrigger>
          <TabsTrigger value="sections">Sections</TabsTrigger>
          <TabsTrigger value="preview">Preview</TabsTrigger>
        </TabsList>

        <TabsContent value="global">
          <ScriptsPageGlobalSettings
            config={config}
            onChange={(change) => edit((current) => ({ ...current, ...change }))}
          />
        </TabsContent>

        <TabsContent value="sections" className="grid gap-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-muted-foreground">
              {`${sections.length} ${sections.length === 1 ? 'section' : 'sections'}, shown in this order.`}
            </p>
            <Button size="sm" onClick={addNewSection}>
              <Plus />
              Add Section
            </Button>
          </div>
          {sections.length === 0 ? (
            <Card>
              <CardContent className="p-8 text-center text-sm text-muted-foreground">
                No sections yet. Add one to offer scripts on the page.
              </CardContent>
            </Card>
          ) : (
            sections.map((section) => (
              <ScriptsPageSectionEditor
                key={section.id}
                section={section}
                expanded={expanded.has(section.id)}
                canMoveUp={canMove(sections, section.id, 'up')}
                canMoveDown={canMove(sections, section.id, 'down')}
                fileListId={fileListId}
                buttonProblem={buttonProblem}
                actions={sectionActions(section.id)}
              />
            ))
          )}
        </TabsContent>

        <TabsContent value="preview">
          <ScriptsPagePreview config={config} buttonProblem={buttonProblem} />
        </TabsContent>
      </Tabs>
      <BrokenButtonsDialog
        broken={pendingSave?.broken ?? []}
        onCancel={() => setPendingSave(null)}
        onSaveAnyway={() => {
          if (pendingSave) commitSave(pendingSave.sent, pendingSave.payload);
          setPendingSave(null);
        }}
      />
      {leaveQuestion}
    </>
  );
}

function ResetToDefaultButton({ pending, onConfirm }: { pending: boolean; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" disabled={pending}>
          {pending ? <LoaderCircle className="animate-spin" /> : <RotateCcw />}
          Reset to Default
        </Button>
      }
      title="Reset the scripts page to its default?"
      description="Every section, button and header setting is replaced by the default content, including changes you have not saved. This action cannot be undone."
      confirmLabel="Reset Page"
      onConfirm={onConfirm}
    />
  );
}

/** Known script file names, offered by every button's File field (typing any name still works). */
function ScriptFileSuggestions({ id, files }: { id: string; files: readonly ScriptFileRecord[] | null }) {
  const names = [...new Set((files ?? []).map((file) => file.filename))];
  return (
    <datalist id={id}>
      {names.map((name) => (
        <option key={name} value={name} />
      ))}
    </datalist>
  );
}
