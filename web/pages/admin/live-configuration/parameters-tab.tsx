import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { type BotConfiguration, DEFAULT_BOT_PARAMETERS } from '../../../../common/configuration.ts';
import { type ListState, ListStateView } from '../shared/list-state.tsx';
import { BotSelector } from './bot-selector.tsx';
import { ConfigurationStatusList } from './configuration-status-list.tsx';
import { NO_BOTS_SELECTED, requireSelection, useBulkUpdate } from './live-configuration-mutations.ts';
import { ParameterControls, type ParameterForm } from './parameter-controls.tsx';
import {
  formValuesOf,
  type ParameterFormInput,
  type ParameterFormOutput,
  ParameterFormSchema,
  parametersOf,
} from './parameter-form.ts';

/** The parameters form, held by the page so a half-edited form survives a look at another tab. */
export function useParameterForm(): ParameterForm {
  return useForm<ParameterFormInput, unknown, ParameterFormOutput>({
    resolver: zodResolver(ParameterFormSchema),
    defaultValues: formValuesOf(DEFAULT_BOT_PARAMETERS),
  });
}

export const NO_CONFIGURATIONS_TEXT = 'No configurations available';

/**
 * The Parameters tab: pick bots, set the four groups of parameters, Apply Changes (every parameter
 * to every selected bot), then watch the first 10 configurations take it.
 */
export function ParametersTab({
  configurations,
  targetBotIds,
  selected,
  onSelectedChange,
  form,
}: {
  configurations: ListState<BotConfiguration>;
  /** The selected bots that are still listed, in list order: what a change goes to. */
  targetBotIds: string[];
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  form: ParameterForm;
}) {
  const bulkUpdate = useBulkUpdate();

  const apply = () => {
    if (!requireSelection(targetBotIds, NO_BOTS_SELECTED.update)) return;
    void form.handleSubmit((values) =>
      bulkUpdate.mutate({ targetBotIds, updates: parametersOf(values), reason: values.reason.trim() }),
    )();
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
          <ParameterControls form={form} applying={bulkUpdate.isPending} onApply={apply} />
          <ConfigurationStatusList configurations={items} onEdit={edit} />
        </div>
      )}
    </ListStateView>
  );
}
