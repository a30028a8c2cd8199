import { LoaderCircle } from 'lucide-react';
import type { ReactElement, ReactNode } from 'react';
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

export interface ConfirmDialogProps {
  /** The element that opens the dialog (a button). */
  trigger: ReactElement;
  /** The dialog's question, e.g. "Delete this license key?". */
  title: ReactNode;
  /** What confirming does, shown under the title. */
  description: ReactNode;
  /** The confirm button's text, e.g. "Delete Key". */
  confirmLabel: string;
  /** The confirm button's look; destructive unless the action is harmless. */
  confirmVariant?: ButtonProps['variant'];
  /** Runs when the admin confirms; the dialog closes either way. */
  onConfirm: () => void;
  /** What the dialog asks besides yes or no (a form field), between the question and the buttons. */
  children?: ReactNode;
  /** Confirm waits, e.g. for a required field. */
  confirmDisabled?: boolean;
  /** Called as the dialog opens and closes, e.g. to clear a field. */
  onOpenChange?: (open: boolean) => void;
}

/** An action that asks first: `trigger` opens an alert dialog with the question, Cancel and confirm. */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  confirmVariant = 'destructive',
  onConfirm,
  children,
  confirmDisabled = false,
  onOpenChange,
}: ConfirmDialogProps) {
  return (
    <AlertDialog onOpenChange={onOpenChange}>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: confirmVariant })}
            disabled={confirmDisabled}
            onClick={onConfirm}
          >
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

export interface ConfirmActionButtonProps extends Omit<ConfirmDialogProps, 'trigger'> {
  /** The trigger's icon (a lucide icon element); a spinner takes its place while `pending`. */
  icon: ReactNode;
  /** The trigger's accessible name and tooltip, e.g. "Delete key". */
  label: string;
  /** Extra trigger classes, usually its colour (e.g. `text-red-400 hover:text-red-300`). */
  className?: string;
  /** The action is under way: the trigger shows a spinner and cannot be pressed again. */
  pending?: boolean;
}

/** A small icon button that asks before it acts. For row actions such as revoke and delete. */
export function ConfirmActionButton({
  icon,
  label,
  className,
  pending = false,
  ...dialog
}: ConfirmActionButtonProps) {
  return (
    <ConfirmDialog
      {...dialog}
      trigger={
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
      }
    />
  );
}
