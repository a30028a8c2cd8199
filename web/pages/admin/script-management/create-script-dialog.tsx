import { LoaderCircle, Plus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { toast } from '@/lib/toast.ts';
import { newScriptTemplate, scriptFilenameProblem, toScriptFilename } from '../../../../common/scripts.ts';
import { useCreateScript } from './script-mutations.ts';

/** What is wrong with the typed name, or null; a blank name is left to the Create button's toast. */
export function newScriptNameProblem(typed: string, existingNames: readonly string[]): string | null {
  if (typed.trim() === '') return null;
  const filename = toScriptFilename(typed);
  const problem = scriptFilenameProblem(filename);
  if (problem) {
    // The shared rule speaks of "filename"; the dialog calls it the name.
    const sentence = problem.replace(/^filename\b/, 'the name');
    return `${sentence[0]?.toUpperCase()}${sentence.slice(1)}.`;
  }
  // Saving under an existing name would add a version to that script instead of creating one.
  if (existingNames.includes(filename)) return `A script named ${filename} already exists.`;
  return null;
}

/** Create Script and its dialog: a name, from which a new script starts with a two-line template. */
export function CreateScriptDialog({
  existingNames,
  onCreated,
}: {
  existingNames: readonly string[];
  onCreated: (filename: string) => void;
}) {
  const nameId = useId();
  const problemId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const create = useCreateScript();
  const problem = newScriptNameProblem(typed, existingNames);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setTyped('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() === '') {
      toast({ title: 'Invalid Input', description: 'Please enter a script name.', variant: 'destructive' });
      return;
    }
    if (problem) return;
    const filename = toScriptFilename(typed);
    create.mutate(
      { filename, content: newScriptTemplate(filename, new Date()) },
      {
        onSuccess: () => {
          onOpenChange(false);
          onCreated(filename);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Plus />
          Create Script
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Script</DialogTitle>
          <DialogDescription>
            A new hosted script starts with a short comment header; '.lua' is added if the name lacks it.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={nameId}>Script Name</Label>
            <Input
              id={nameId}
              value={typed}
              placeholder="my-script.lua"
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(e) => setTyped(e.target.value)}
            />
            {problem ? (
              <p id={problemId} role="alert" className="text-sm text-destructive">
                {problem}
              </p>
            ) : (
              typed.trim() !== '' && (
                <p className="text-xs text-muted-foreground">Creates {toScriptFilename(typed)}</p>
              )
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <LoaderCircle className="animate-spin" />}
              Create
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
