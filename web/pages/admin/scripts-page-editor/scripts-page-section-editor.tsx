import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId } from 'react';
import type { ButtonProblemOf } from '@/components/scripts-page/script-section.tsx';
import { ICON_GRADIENT_PRESETS, SECTION_ICON_COMPONENTS } from '@/components/scripts-page/scripts-content.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { cn } from '@/lib/cn.ts';
import {
  ACCESS_INFO_VARIANTS,
  BADGE_VARIANTS,
  type ScriptsPageSection,
  SECTION_ICONS,
} from '../../../../common/scripts-page.ts';
import { ItemControls, SelectField, TextField } from '../shared/field-controls.tsx';
import {
  badgeWithText,
  type MoveDirection,
  NEW_ACCESS_INFO,
  type SectionChange,
} from './scripts-page-draft.ts';
import { ButtonList, type ButtonListActions, FeatureListEditor } from './scripts-page-section-lists.tsx';

export interface SectionEditorActions extends ButtonListActions {
  onToggleExpanded: () => void;
  onChange: (change: SectionChange) => void;
  onMove: (direction: MoveDirection) => void;
  onDelete: () => void;
}

/**
 * One section of the scripts page as a collapsible card: the header row always shows its place,
 * visibility and delete; expanded, it edits the texts, icon, badge, access note, features and buttons.
 */
export function ScriptsPageSectionEditor({
  section,
  expanded,
  canMoveUp,
  canMoveDown,
  fileListId,
  buttonProblem,
  actions,
}: {
  section: ScriptsPageSection;
  expanded: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  fileListId?: string;
  /** What would fail for a visitor pressing a button: shown under it, and counted on the collapsed card. */
  buttonProblem: ButtonProblemOf;
  actions: SectionEditorActions;
}) {
  const bodyId = useId();
  const name = section.title.trim() || 'Untitled section';
  const Icon = SECTION_ICON_COMPONENTS[section.icon] ?? SECTION_ICON_COMPONENTS.code;
  const buttonCount = section.buttons.length;
  const failing = section.buttons.filter((button) => buttonProblem(button) !== null).length;

  return (
    <Card role="group" aria-label={`Section ${name}`} className={cn(!section.visible && 'opacity-75')}>
      <CardHeader className="flex-row flex-wrap items-center gap-3 p-4">
        <Button
          variant="ghost"
          size="icon"
          className="h-8 w-8"
          aria-expanded={expanded}
          aria-controls={bodyId}
          aria-label={`${expanded ? 'Collapse' : 'Expand'} section ${name}`}
          onClick={actions.onToggleExpanded}
        >
          {expanded ? <ChevronDown /> : <ChevronRight />}
        </Button>
        <div
          className={cn(
            'flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-primary bg-gradient-to-br',
            section.iconColor,
          )}
          aria-hidden="true"
        >
          <Icon className="h-5 w-5 text-white" />
        </div>
        {/* At least 10rem for the title: on a phone the controls wrap under it instead of over it. */}
        <div className="grid min-w-0 flex-1 basis-40 gap-0.5">
          <div className="flex min-w-0 items-center gap-2">
            <CardTitle className="min-w-0 truncate text-base font-semibold leading-normal tracking-normal">
              {name}
            </CardTitle>
            {!section.visible && <Badge variant="outline">Hidden</Badge>}
            {failing > 0 && (
              <Badge
                variant="outline"
                className="shrink-0 border-amber-400/40 bg-amber-500/10 text-amber-300"
              >
                {failing === 1 ? '1 button fails' : `${failing} buttons fail`}
              </Badge>
            )}
          </div>
          <p className="text-xs text-muted-foreground">
            {`Position ${section.order + 1} · ${buttonCount} ${buttonCount === 1 ? 'button' : 'buttons'}`}
          </p>
        </div>
        <ItemControls
          className="ml-auto"
          subject={`section ${name}`}
          visible={section.visible}
          onVisibleChange={(visible) => actions.onChange({ visible })}
          canMoveUp={canMoveUp}
          canMoveDown={canMoveDown}
          onMove={actions.onMove}
          confirmDelete={{
            title: 'Delete this section?',
            description: `"${name}" and its ${buttonCount} ${buttonCount === 1 ? 'button' : 'buttons'} are removed. Visitors stop seeing them once you save.`,
            confirmLabel: 'Delete Section',
          }}
          onDelete={actions.onDelete}
        />
      </CardHeader>
      {expanded && (
        <CardContent id={bodyId} className="grid gap-6 border-t p-4 pt-4">
          <SectionTexts section={section} onChange={actions.onChange} />
          <SectionLook section={section} onChange={actions.onChange} />
          <AccessInfoEditor section={section} onChange={actions.onChange} />
          <FeatureListEditor
            features={section.features}
            onChange={(features) => actions.onChange({ features })}
          />
          <ButtonList
            section={section}
            fileListId={fileListId}
            buttonProblem={buttonProblem}
            actions={actions}
          />
        </CardContent>
      )}
    </Card>
  );
}

type SectionPartProps = { section: ScriptsPageSection; onChange: (change: SectionChange) => void };

function SectionTexts({ section, onChange }: SectionPartProps) {
  return (
    <div className="grid gap-4">
      <TextField
        label="Title"
        value={section.title}
        maxLength={200}
        onValueChange={(title) => onChange({ title })}
      />
      <TextField
        label="Description"
        value={section.description}
        maxLength={2000}
        rows={2}
        onValueChange={(description) => onChange({ description })}
      />
    </div>
  );
}

/** Icon, icon colour and badge: how the section's header looks. */
function SectionLook({ section, onChange }: SectionPartProps) {
  // A colour set outside the editor (not a preset) is still offered, so the select can show it.
  const colors: readonly string[] = (ICON_GRADIENT_PRESETS as readonly string[]).includes(section.iconColor)
    ? ICON_GRADIENT_PRESETS
    : [section.iconColor, ...ICON_GRADIENT_PRESETS];
  const badge = section.badge;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        label="Icon"
        value={section.icon}
        options={SECTION_ICONS}
        renderOption={(icon) => {
          const ItemIcon = SECTION_ICON_COMPONENTS[icon];
          return (
            <span className="flex items-center gap-2">
              <ItemIcon className="h-4 w-4" aria-hidden="true" />
              {icon}
            </span>
          );
        }}
        onValueChange={(icon) => onChange({ icon })}
      />
      <SelectField
        label="Icon Colour"
        value={section.iconColor}
        options={colors}
        renderOption={(color) => (
          <span className="flex items-center gap-2">
            <span
              className={cn('h-4 w-4 shrink-0 rounded bg-primary bg-gradient-to-br', color)}
              aria-hidden="true"
            />
            <span className="font-mono text-xs">{color}</span>
          </span>
        )}
        onValueChange={(iconColor) => onChange({ iconColor })}
      />
      <TextField
        label="Badge Text"
        value={badge?.text ?? ''}
        maxLength={60}
        placeholder="Empty: no badge"
        onValueChange={(text) => onChange(badgeWithText(section, text))}
      />
      <SelectField
        label="Badge Style"
        value={badge?.variant ?? 'default'}
        options={BADGE_VARIANTS}
        disabled={!badge}
        onValueChange={(variant) => {
          if (badge) onChange({ badge: { ...badge, variant } });
        }}
      />
    </div>
  );
}

/** The optional note under the section header (who may use it, how to get access). */
function AccessInfoEditor({ section, onChange }: SectionPartProps) {
  const toggleId = useId();
  const info = section.accessInfo;
  return (
    <div className="grid gap-3 rounded-md border p-4">
      <div className="flex items-center justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={toggleId}>Access Info</Label>
          <p className="text-xs text-muted-foreground">A highlighted note on who can use this script.</p>
        </div>
        <Switch
          id={toggleId}
          checked={info !== undefined}
          onCheckedChange={(on) => onChange({ accessInfo: on ? { ...NEW_ACCESS_INFO } : undefined })}
        />
      </div>
      {info && (
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
          <TextField
            label="Access Title"
            value={info.title}
            maxLength={200}
            onValueChange={(title) => onChange({ accessInfo: { ...info, title } })}
          />
          <SelectField
            label="Access Style"
            value={info.variant}
            options={ACCESS_INFO_VARIANTS}
            onValueChange={(variant) => onChange({ accessInfo: { ...info, variant } })}
          />
          <TextField
            label="Access Description"
            fieldClassName="sm:col-span-2"
            value={info.description}
            maxLength={1000}
            rows={2}
            onValueChange={(description) => onChange({ accessInfo: { ...info, description } })}
          />
        </div>
      )}
    </div>
  );
}
