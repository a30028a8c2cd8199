import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';
import { buttonVariants } from '@/components/ui/button.tsx';
import type { BrokenButton } from './button-file-check.ts';

/**
 * Asked before a save that would publish buttons that fail for visitors (a file not hosted, or not
 * open to them). The operator may still save, say to upload the file next, but never without seeing
 * which buttons and files.
 */
export function BrokenButtonsDialog({
  broken,
  onCancel,
  onSaveAnyway,
}: {
  /** The failing buttons; the dialog is open while there are any. */
  broken: readonly BrokenButton[];
  onCancel: () => void;
  onSaveAnyway: () => void;
}) {
  const one = broken.length === 1;
  return (
    <AlertDialog open={broken.length > 0} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            {one ? 'Save with a button that fails?' : 'Save with buttons that fail?'}
          </AlertDialogTitle>
          <AlertDialogDescription>
            {`Visitors who press ${one ? 'it' : 'them'} get an error until the file is uploaded in the File Manager or the button is changed.`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ul className="grid list-disc gap-1 pl-5 text-sm">
          {broken.map((button) => (
            <li key={`${button.section}\u0000${button.label}\u0000${button.problem}`}>
              {`"${button.label}" in ${button.section}: ${button.problem}`}
            </li>
          ))}
        </ul>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={onSaveAnyway}>
            Save Anyway
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
