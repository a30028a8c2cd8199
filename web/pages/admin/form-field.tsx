import { type ReactNode, useId } from 'react';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/cn.ts';

/*
 * The labelled field of the create dialogs: a label tied to its control by a generated id, the
 * control, then the field's validation message or, while it is valid, its hint.
 */

/** What a field's control needs: the id its label points at, and whether the field is invalid. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
}

export function FormField({
  label,
  error,
  hint,
  className,
  children,
}: {
  label: string;
  /** The field's validation message; undefined while it is valid. */
  error?: string;
  hint?: string;
  /** Extra classes for the wrapper, e.g. `content-start` in a two-column row. */
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': error ? true : undefined })}
      <FieldError message={error} hint={hint} />
    </div>
  );
}

/** A field's validation message, or its hint while it is valid. */
export function FieldError({ message, hint }: { message: string | undefined; hint?: string }) {
  if (message) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {message}
      </p>
    );
  }
  return hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null;
}

/** A number input's browser limits for a whole number within `range` (spinner, keyboard, hints). */
export function wholeNumberInputProps(range: { min: number; max: number }) {
  return { type: 'number', inputMode: 'numeric', min: range.min, max: range.max, step: 1 } as const;
}
