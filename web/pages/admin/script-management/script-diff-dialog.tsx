import { GitCompare } from 'lucide-react';
import { DiffView } from '@/components/diff-view.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import type { ScriptVersion } from '../../../../common/scripts.ts';

/** Compare: a stored version beside what the editor holds now, to check a change before deploying. */
export function ScriptDiffDialog({ version, editorText }: { version: ScriptVersion; editorText: string }) {
  const identical = version.content === editorText;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Compare version ${version.version} with the editor`}>
          <GitCompare />
          Compare
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>Version {version.version} and the editor</DialogTitle>
          <DialogDescription>
            {identical
              ? `The editor holds exactly version ${version.version}.`
              : `Left: version ${version.version} as stored. Right: the editor, which Save & Deploy would publish.`}
          </DialogDescription>
        </DialogHeader>
        <DiffView
          original={version.content}
          originalLabel={`Version ${version.version}`}
          modified={editorText}
          modifiedLabel="Editor"
        />
      </DialogContent>
    </Dialog>
  );
}
