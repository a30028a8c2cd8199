import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog.tsx';
import { Button, type ButtonProps, buttonVariants } from '@/components/ui/button.tsx';
import { cn } from '@/lib/cn.ts';

export interface ConfirmActionButtonProps {
  /** The trigger's icon (a lucide icon element); a spinner takes its place while `pending`. */
  icon: ReactNode;
  /** The trigger's accessible name and tooltip, e.g. "Delete key". */
  label: string;
  /** The dialog's question, e.g. "Delete this license key?". */
  title: ReactNode;
  /** What confirming does, shown under the title. */
  description: ReactNode;
  /** The confirm button's text, e.g. "Delete Key". */
  confirmLabel: string;
  /** The confirm button's look; destructive unless the action is harmless. */
  confirmVariant?: ButtonProps['variant'];
  /** Extra trigger classes, usually its colour (e.g. `text-red-400 hover:text-red-300`). */
  className?: string;
  /** Runs when the admin confirms; the dialog closes either way. */
  onConfirm: () => void;
  /** The action is under way: the trigger shows a spinner and cannot be pressed again. */
  pending?: boolean;
}

/**
 * A small icon button that asks before it acts: the trigger opens an alert dialog with the question,
 * a Cancel button and the confirm button. For row actions such as revoke and delete.
 */
export function ConfirmActionButton({
  icon,
  label,
  title,
  description,
  confirmLabel,
  confirmVariant = 'destructive',
  className,
  onConfirm,
  pending = false,
}: ConfirmActionButtonProps) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className={cn('h-8 w-8', className)}
          aria-label={label}
          title={label}
          disabled={pending}
        >
          {pending ? <LoaderCircle className="animate-spin" /> : icon}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: confirmVariant })} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
