import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { toast } from '@/lib/toast.ts';
import {
  BOT_PARAMETER_NAMES,
  type BotConfiguration,
  type ConfigurationChange,
} from '../../../../common/configuration.ts';
import { type ListState, ListStateView } from '../shared/list-state.tsx';
import { BotSelector } from './bot-selector.tsx';
import { ConfigurationStatusList } from './configuration-status-list.tsx';
import { LatestPush } from './latest-push.tsx';
import { NO_BOTS_SELECTED, requireSelection, useBulkUpdate } from './live-configuration-mutations.ts';
import { ParameterControls, type ParameterFormState } from './parameter-controls.tsx';
import {
  draftOf,
  formValuesOf,
  type ParameterDraft,
  type ParameterFormInput,
  type ParameterFormOutput,
  parameterChangesSchema,
  selectionValuesOf,
  unchanged,
} from './parameter-form.ts';

/** Apply Changes with nothing changed: nothing is sent. */
export const NO_CHANGES = {
  title: 'No Changes',
  description: 'Change at least one parameter before applying',
} as const;

/** A field the admin has not touched since `previous` was shown. */
function untouched(name: keyof ParameterDraft, value: unknown, previous: ParameterDraft): boolean {
  return name === 'stealthMode'
    ? value === previous.stealthMode
    : unchanged(String(value), previous[name as Exclude<keyof ParameterDraft, 'stealthMode'>]);
}

/**
 * The parameters form, held by the page so a half-edited form survives a look at another tab. It
 * shows the selected bots' current values (MIXED where they differ) and follows the selection and
 * the bots' values as they change, except in the fields the admin changed.
 */
export function useParameterForm(selection: readonly BotConfiguration[]): ParameterFormState {
  // The values only (a poll brings new objects with the same values).
  const valuesKey = JSON.stringify(selection.map((c) => BOT_PARAMETER_NAMES.map((name) => c[name])));
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the selection's values change
  const shown = useMemo(() => ({ start: draftOf(selectionValuesOf(selection)), selection }), [valuesKey]);
  const shownRef = useRef(shown);
  const form = useForm<ParameterFormInput, unknown, ParameterFormOutput>({
    // Checked against what is shown now: only the changed fields count.
    resolver: ((values, context, options) =>
      zodResolver(parameterChangesSchema(shownRef.current.start, shownRef.current.selection))(
        values,
        context,
        options,
      )) as Resolver<ParameterFormInput, unknown, ParameterFormOutput>,
    defaultValues: formValuesOf(selectionValuesOf(selection)),
  });

  useEffect(() => {
    const previous = shownRef.current.start;
    shownRef.current = shown;
    if (previous === shown.start) return;
    for (const name of Object.keys(shown.start) as Array<keyof ParameterDraft>) {
      if (!untouched(name, form.getValues(name), previous)) continue;
      form.setValue(name, shown.start[name]);
      form.clearErrors(name);
    }
  }, [shown, form]);

  return { form, start: shown.start, selection: shown.selection };
}

export const NO_CONFIGURATIONS_TEXT = 'No configurations available';

/**
 * The Parameters tab: pick bots, see and change their parameters in four groups, Apply Changes (the
 * changed fields only, to every selected bot), then watch the first 10 configurations take it.
 */
export function ParametersTab({
  configurations,
  targetBotIds,
  selected,
  onSelectedChange,
  parameters,
  latestPush,
}: {
  configurations: ListState<BotConfiguration>;
  /** The selected bots that are still listed, in list order: what a change goes to. */
  targetBotIds: string[];
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  parameters: ParameterFormState;
  /** The newest parameter change, whose acknowledgements are shown under the form. */
  latestPush: ConfigurationChange | undefined;
}) {
  const bulkUpdate = useBulkUpdate();
  const { form } = parameters;

  const apply = () => {
    if (!requireSelection(targetBotIds, NO_BOTS_SELECTED.update)) return;
    void form.handleSubmit(({ updates, reason }) => {
      if (Object.keys(updates).length === 0) {
        toast(NO_CHANGES);
        return;
      }
      bulkUpdate.mutate(
        { targetBotIds, updates, reason },
        // The sent values are the bots' values now: the form follows them again.
        { onSuccess: () => form.setValue('reason', '') },
      );
    })();
  };

  const edit = (configuration: BotConfiguration) => {
    form.reset(formValuesOf(configuration));
    onSelectedChange(new Set([configuration.botId]));
  };

  return (
    <ListStateView state={configurations} loading="Loading configurations..." empty={NO_CONFIGURATIONS_TEXT}>
      {(items) => (
        <div className="grid gap-4">
          <BotSelector configurations={items} selected={selected} onSelectedChange={onSelectedChange} />
          <ParameterControls
            parameters={parameters}
            targets={targetBotIds}
            applying={bulkUpdate.isPending}
            onApply={apply}
          />
          <LatestPush change={latestPush} />
          <ConfigurationStatusList configurations={items} onEdit={edit} />
        </div>
      )}
    </ListStateView>
  );
}
