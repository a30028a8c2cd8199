import { Rocket, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { CodeEditor } from '@/components/code-editor.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { formatFileSize } from '../../../../common/format.ts';
import {
  countLines,
  type LuaSyntaxErrorResponse,
  MAX_SCRIPT_BYTES,
  MAX_VERSION_NOTES_LENGTH,
  utf8ByteLength,
} from '../../../../common/scripts.ts';

/** The live-deployment warning every save is made under (spec 2.4). */
export const LIVE_DEPLOYMENT_NOTICE =
  'Saving is a live deployment: the new version reaches all users at once.';

export interface ScriptEditorCardProps {
  filename: string;
  text: string;
  modified: boolean;
  /** The server's refusal of exactly this text, shown until the text changes. */
  refusal: LuaSyntaxErrorResponse | null;
  notes: string;
  onTextChange: (text: string) => void;
  onNotesChange: (notes: string) => void;
  /** Ctrl-S / Cmd-S in the editor: the same as Save & Deploy. */
  onSave: () => void;
}

/** The open script's text, whether it differs from what is deployed, and the notes for the next version. */
export function ScriptEditorCard({
  filename,
  text,
  modified,
  refusal,
  notes,
  onTextChange,
  onNotesChange,
  onSave,
}: ScriptEditorCardProps) {
  const notesId = useId();
  const bytes = utf8ByteLength(text);
  return (
    <Card className="min-w-0">
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="truncate text-lg">{filename}</CardTitle>
          <Badge variant={modified ? 'default' : 'success'} data-testid="save-state">
            {modified ? 'Modified' : 'Saved'}
          </Badge>
        </div>
        <CardDescription className="flex items-start gap-2">
          <Rocket className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {LIVE_DEPLOYMENT_NOTICE}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {refusal && (
          <Alert variant="destructive">
            <TriangleAlert className="h-4 w-4" />
            <AlertTitle>Not deployed</AlertTitle>
            <AlertDescription>{refusal.error}</AlertDescription>
          </Alert>
        )}
        <CodeEditor
          value={text}
          onChange={onTextChange}
          label="Script editor"
          serverError={refusal?.syntaxError ?? null}
          onSaveShortcut={onSave}
        />
        <p
          className={bytes > MAX_SCRIPT_BYTES ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}
        >
          {`${countLines(text).toLocaleString('en-US')} lines, ${formatFileSize(bytes)}`}
          {bytes > MAX_SCRIPT_BYTES && ` (over the ${formatFileSize(MAX_SCRIPT_BYTES)} limit)`}
        </p>
        <div className="grid gap-2">
          <Label htmlFor={notesId}>Version Notes (optional)</Label>
          <Input
            id={notesId}
            value={notes}
            maxLength={MAX_VERSION_NOTES_LENGTH}
            placeholder="What changed in this version"
            onChange={(e) => onNotesChange(e.target.value)}
          />
        </div>
      </CardContent>
    </Card>
  );
}
