import { LoaderCircle, RotateCcw, Send } from 'lucide-react';
import { useId } from 'react';
import { type Control, type UseFormReturn, useController } from 'react-hook-form';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { DEFAULT_BOT_PARAMETERS, MAX_REASON_LENGTH } from '../../../../common/configuration.ts';
import { FormField } from '../shared/form-field.tsx';
import {
  draftOf,
  type NumericParameter,
  PARAMETER_GROUPS,
  PARAMETER_LABELS,
  type ParameterFormInput,
  type ParameterFormOutput,
  parameterHint,
  parameterLimits,
} from './parameter-form.ts';

/** The form Apply Changes submits: the draft and the optional reason. */
export type ParameterForm = UseFormReturn<ParameterFormInput, unknown, ParameterFormOutput>;

/** Parameters with a spec step get a slider beside the number: the hop timings. */
const SLIDER_FIELDS: readonly NumericParameter[] = ['hopFrequencyMs', 'hopDelayMs', 'hopCooldownMs'];

/** A numeric parameter: a number field with its range, a slider for the timings, and its error. */
function ParameterField({ control, name }: { control: ParameterForm['control']; name: NumericParameter }) {
  const { field, fieldState } = useController({ control, name });
  const label = PARAMETER_LABELS[name];
  const { min, max, step } = parameterLimits(name);
  const value = String(field.value);
  return (
    <FormField label={label} error={fieldState.error?.message} hint={parameterHint(name, value)}>
      {(controlProps) => (
        <div className="grid gap-2">
          <Input
            {...controlProps}
            type="number"
            inputMode="numeric"
            min={min}
            max={max}
            step={step}
            name={field.name}
            ref={field.ref}
            value={value}
            onBlur={field.onBlur}
            onChange={(event) => field.onChange(event.target.value)}
          />
          {SLIDER_FIELDS.includes(name) && (
            <input
              type="range"
              aria-label={`${label} slider`}
              className="w-full accent-primary"
              min={min}
              max={max}
              step={step}
              value={Number.parseInt(value, 10) || min}
              onChange={(event) => field.onChange(event.target.value)}
            />
          )}
        </div>
      )}
    </FormField>
  );
}

function StealthModeField({
  control,
}: {
  control: Control<ParameterFormInput, unknown, ParameterFormOutput>;
}) {
  const id = useId();
  const { field } = useController({ control, name: 'stealthMode' });
  return (
    <div className="flex items-center justify-between gap-3 rounded-md border p-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{PARAMETER_LABELS.stealthMode}</Label>
        <p className="text-xs text-muted-foreground">Slower, human-like hops that are harder to spot</p>
      </div>
      <Switch id={id} checked={field.value} onCheckedChange={field.onChange} />
    </div>
  );
}

/**
 * The spec's four control groups, the optional reason and Apply Changes. Values are checked against
 * the spec's ranges on submit; an invalid field says its range and nothing is sent.
 */
export function ParameterControls({
  form,
  applying,
  onApply,
}: {
  form: ParameterForm;
  applying: boolean;
  onApply: () => void;
}) {
  const reasonId = useId();
  return (
    <form
      noValidate
      className="grid gap-4"
      aria-label="Bot parameters"
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <div className="grid gap-4 lg:grid-cols-2">
        {PARAMETER_GROUPS.map((group) => (
          <Card key={group.title} role="group" aria-label={group.title}>
            <CardHeader>
              <CardTitle className="text-lg">{group.title}</CardTitle>
              <CardDescription>{group.description}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              {group.fields.map((name) =>
                name === 'stealthMode' ? (
                  <div key={name} className="sm:col-span-2">
                    <StealthModeField control={form.control} />
                  </div>
                ) : (
                  <ParameterField key={name} control={form.control} name={name} />
                ),
              )}
            </CardContent>
          </Card>
        ))}
      </div>

      <Card>
        <CardContent className="grid gap-4 pt-6">
          <div className="grid gap-2">
            <Label htmlFor={reasonId}>Reason (optional)</Label>
            <Input
              id={reasonId}
              maxLength={MAX_REASON_LENGTH}
              placeholder="Why these values, for the history"
              {...form.register('reason')}
            />
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Button
              type="button"
              variant="ghost"
              onClick={() =>
                form.reset({ ...draftOf(DEFAULT_BOT_PARAMETERS), reason: form.getValues('reason') })
              }
            >
              <RotateCcw />
              Reset Form to Defaults
            </Button>
            <Button type="submit" disabled={applying}>
              {applying ? <LoaderCircle className="animate-spin" /> : <Send />}
              Apply Changes
            </Button>
          </div>
        </CardContent>
      </Card>
    </form>
  );
}
