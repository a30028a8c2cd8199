import { type ReactNode, useId } from 'react';
import {
  type Control,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormRegisterReturn,
  useController,
} from 'react-hook-form';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/cn.ts';
import { OptionSelect } from './option-select.tsx';

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

/** A form field picked from a fixed list of values (the key or script type); its error comes from the form. */
export function SelectFormField<TForm extends FieldValues, TName extends Path<TForm>>({
  control,
  name,
  label,
  hint,
  options,
  renderOption,
}: {
  control: Control<TForm>;
  name: TName;
  label: string;
  hint?: string;
  options: readonly (PathValue<TForm, TName> & string)[];
  renderOption: (option: PathValue<TForm, TName> & string) => ReactNode;
}) {
  const { field, fieldState } = useController({ control, name });
  return (
    <FormField label={label} error={fieldState.error?.message} hint={hint}>
      {({ id }) => (
        <OptionSelect
          id={id}
          value={field.value}
          options={options}
          onValueChange={field.onChange}
          onBlur={field.onBlur}
          renderOption={renderOption}
        />
      )}
    </FormField>
  );
}

/**
 * A number field for a whole number within `range`: the browser's limits (spinner, numeric
 * keyboard) on a registered input; the form's rules do the checking.
 */
export function WholeNumberField({
  label,
  error,
  hint,
  className,
  range,
  registration,
}: {
  label: string;
  error: string | undefined;
  hint: string;
  className?: string;
  range: { min: number; max: number };
  registration: UseFormRegisterReturn;
}) {
  return (
    <FormField label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <Input
          {...control}
          type="number"
          inputMode="numeric"
          min={range.min}
          max={range.max}
          step={1}
          {...registration}
        />
      )}
    </FormField>
  );
}
