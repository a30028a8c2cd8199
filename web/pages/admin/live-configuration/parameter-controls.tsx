import { LoaderCircle, RotateCcw, Send, Undo2 } from 'lucide-react';
import { useId } from 'react';
import { type UseFormReturn, useController, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { plural } from '@/lib/plural.ts';
import {
  BOT_PARAMETER_NAMES,
  type BotParameters,
  DEFAULT_BOT_PARAMETERS,
  MAX_REASON_LENGTH,
} from '../../../../common/configuration.ts';
import { FormField } from '../shared/form-field.tsx';
import { useUnsavedChangesGuard } from '../shared/use-unsaved-changes-guard.tsx';
import {
  draftOf,
  MIXED,
  mixedRange,
  type NumericParameter,
  PARAMETER_GROUPS,
  PARAMETER_LABELS,
  type ParameterDraft,
  type ParameterFormInput,
  type ParameterFormOutput,
  parameterHint,
  parameterLimits,
  unchanged,
} from './parameter-form.ts';

/** The form Apply Changes submits: the draft and the optional reason. */
export type ParameterForm = UseFormReturn<ParameterFormInput, unknown, ParameterFormOutput>;

/** The form, what it started from (the selected bots' values) and those bots. */
export interface ParameterFormState {
  form: ParameterForm;
  start: ParameterDraft;
  selection: readonly BotParameters[];
}

/** The parameters the draft changes from where it started. */
export function changedCount(draft: ParameterDraft, start: ParameterDraft): number {
  return BOT_PARAMETER_NAMES.filter((name) =>
    name === 'stealthMode' ? draft.stealthMode !== start.stealthMode : !unchanged(draft[name], start[name]),
  ).length;
}

/** What the form shows, above it. */
function selectionLine(targets: readonly string[]): string {
  if (targets.length === 0) return 'No bot selected: the form shows the default parameters.';
  const whose = targets.length === 1 ? targets[0] : plural(targets.length, 'bot', 'bots');
  return `Showing the current values of ${whose}. Apply Changes sends only the parameters you change; each bot keeps the others.`;
}

/** Parameters with a spec step get a slider beside the number: the hop timings. */
const SLIDER_FIELDS: readonly NumericParameter[] = ['hopFrequencyMs', 'hopDelayMs', 'hopCooldownMs'];

/** A numeric parameter: a number field with its range, a slider for the timings, and its error. */
function ParameterField({
  parameters: { form, start, selection },
  name,
}: {
  parameters: ParameterFormState;
  name: NumericParameter;
}) {
  const { field, fieldState } = useController({ control: form.control, name });
  const label = PARAMETER_LABELS[name];
  const { min, max, step } = parameterLimits(name);
  const value = String(field.value);
  // The selected bots differ here: left empty, each keeps its own value.
  const mixed = start[name] === '';
  const hint =
    mixed && value.trim() === ''
      ? `Mixed: ${mixedRange(selection, name)}. Each bot keeps its value unless you type one.`
      : parameterHint(name, value);
  return (
    <FormField label={label} error={fieldState.error?.message} hint={hint}>
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
            placeholder={mixed ? 'Mixed' : undefined}
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

function StealthModeField({ parameters: { form, selection } }: { parameters: ParameterFormState }) {
  const id = useId();
  const { field } = useController({ control: form.control, name: 'stealthMode' });
  const mixed = field.value === MIXED;
  return (
    <div className="flex items-center justify-between gap-3 rounded-md border p-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{PARAMETER_LABELS.stealthMode}</Label>
        <p className="text-xs text-muted-foreground">
          {mixed
            ? `Mixed: ${mixedRange(selection, 'stealthMode')}. Each bot keeps its setting unless you switch it.`
            : 'Slower, human-like hops that are harder to spot'}
        </p>
      </div>
      <Switch
        id={id}
        checked={field.value === true}
        aria-checked={mixed ? 'mixed' : field.value === true}
        onCheckedChange={field.onChange}
      />
    </div>
  );
}

/**
 * The spec's four control groups, the optional reason and Apply Changes. Values are checked against
 * the spec's ranges on submit; an invalid field says its range and nothing is sent.
 */
export function ParameterControls({
  parameters,
  targets,
  applying,
  onApply,
}: {
  parameters: ParameterFormState;
  /** The selected bots, whose values the form shows. */
  targets: readonly string[];
  applying: boolean;
  onApply: () => void;
}) {
  const reasonId = useId();
  const { form, start } = parameters;
  const changed = changedCount(useWatch({ control: form.control }) as ParameterDraft, start);
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
      <p className="text-sm text-muted-foreground" data-testid="parameters-shown">
        {selectionLine(targets)}
      </p>
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
                    <StealthModeField parameters={parameters} />
                  </div>
                ) : (
                  <ParameterField key={name} parameters={parameters} name={name} />
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
            <div className="flex flex-wrap gap-2">
              <Button
                type="button"
                variant="ghost"
                disabled={changed === 0}
                onClick={() => form.reset({ ...start, reason: form.getValues('reason') })}
              >
                <Undo2 />
                Discard Changes
              </Button>
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
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <span className="text-sm text-muted-foreground" aria-live="polite">
                {changed === 0
                  ? 'No parameter changed'
                  : `${plural(changed, 'parameter', 'parameters')} changed`}
              </span>
              <Button type="submit" disabled={applying}>
                {applying ? <LoaderCircle className="animate-spin" /> : <Send />}
                Apply Changes
              </Button>
            </div>
          </div>
        </CardContent>
      </Card>
    </form>
  );
}

/**
 * While the form changes a parameter that was not applied, leaving the screen asks first. The page
 * renders it beside its tabs: the form lives in the page, so the edits survive a tab switch but not
 * leaving the screen.
 */
export function UnsavedParametersGuard({ parameters }: { parameters: ParameterFormState }) {
  const draft = useWatch({ control: parameters.form.control }) as ParameterDraft;
  return useUnsavedChangesGuard(changedCount(draft, parameters.start) > 0);
}
