import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, Plus, Trash2, X } from 'lucide-react';
import { useId } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { cn } from '@/lib/cn.ts';
import {
  ACCESS_INFO_VARIANTS,
  BADGE_VARIANTS,
  type ScriptsPageSection,
  SECTION_ICONS,
} from '../../../common/scripts-page.ts';
import { ICON_GRADIENT_PRESETS, SECTION_ICON_COMPONENTS } from '../public/scripts-content.ts';
import { ScriptsPageButtonEditor } from './scripts-page-button-editor.tsx';
import {
  type ButtonChange,
  badgeWithText,
  byOrder,
  canMove,
  type MoveDirection,
  NEW_ACCESS_INFO,
  type SectionChange,
} from './scripts-page-draft.ts';

export interface SectionEditorActions {
  onToggleExpanded: () => void;
  onChange: (change: SectionChange) => void;
  onMove: (direction: MoveDirection) => void;
  onDelete: () => void;
  onAddButton: () => void;
  onButtonChange: (buttonId: string, change: ButtonChange) => void;
  onButtonMove: (buttonId: string, direction: MoveDirection) => void;
  onButtonDelete: (buttonId: string) => void;
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
  actions,
}: {
  section: ScriptsPageSection;
  expanded: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  fileListId?: string;
  actions: SectionEditorActions;
}) {
  const bodyId = useId();
  const visibleId = useId();
  const name = section.title.trim() || 'Untitled section';
  const Icon = SECTION_ICON_COMPONENTS[section.icon] ?? SECTION_ICON_COMPONENTS.code;
  const buttonCount = section.buttons.length;

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
            <h3 className="min-w-0 truncate font-semibold">{name}</h3>
            {!section.visible && <Badge variant="outline">Hidden</Badge>}
          </div>
          <p className="text-xs text-muted-foreground">
            {`Position ${section.order + 1} · ${buttonCount} ${buttonCount === 1 ? 'button' : 'buttons'}`}
          </p>
        </div>
        <div className="ml-auto flex items-center gap-1">
          <div className="mr-2 flex items-center gap-2">
            <Switch
              id={visibleId}
              checked={section.visible}
              onCheckedChange={(visible) => actions.onChange({ visible })}
            />
            <Label htmlFor={visibleId} className="text-xs text-muted-foreground">
              Visible
            </Label>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="h-8 w-8"
            aria-label={`Move section ${name} up`}
            title="Move up"
            disabled={!canMoveUp}
            onClick={() => actions.onMove('up')}
          >
            <ArrowUp />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="h-8 w-8"
            aria-label={`Move section ${name} down`}
            title="Move down"
            disabled={!canMoveDown}
            onClick={() => actions.onMove('down')}
          >
            <ArrowDown />
          </Button>
          <ConfirmActionButton
            icon={<Trash2 />}
            label={`Delete section ${name}`}
            title="Delete this section?"
            description={`"${name}" and its ${buttonCount} ${buttonCount === 1 ? 'button' : 'buttons'} are removed. Visitors stop seeing them once you save.`}
            confirmLabel="Delete Section"
            className="text-red-400 hover:text-red-300"
            onConfirm={actions.onDelete}
          />
        </div>
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
          <ButtonList section={section} fileListId={fileListId} actions={actions} />
        </CardContent>
      )}
    </Card>
  );
}

type SectionPartProps = { section: ScriptsPageSection; onChange: (change: SectionChange) => void };

function SectionTexts({ section, onChange }: SectionPartProps) {
  const ids = { title: useId(), description: useId() };
  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor={ids.title}>Title</Label>
        <Input
          id={ids.title}
          value={section.title}
          maxLength={200}
          onChange={(e) => onChange({ title: e.target.value })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.description}>Description</Label>
        <Textarea
          id={ids.description}
          value={section.description}
          maxLength={2000}
          rows={2}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </div>
    </div>
  );
}

/** Icon, icon colour and badge: how the section's header looks. */
function SectionLook({ section, onChange }: SectionPartProps) {
  const ids = { icon: useId(), color: useId(), badgeText: useId(), badgeVariant: useId() };
  // A colour set outside the editor (not a preset) is still offered, so the select can show it.
  const colors: readonly string[] = (ICON_GRADIENT_PRESETS as readonly string[]).includes(section.iconColor)
    ? ICON_GRADIENT_PRESETS
    : [section.iconColor, ...ICON_GRADIENT_PRESETS];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-1.5">
        <Label htmlFor={ids.icon}>Icon</Label>
        <Select
          value={section.icon}
          onValueChange={(icon) => onChange({ icon: icon as ScriptsPageSection['icon'] })}
        >
          <SelectTrigger id={ids.icon}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {SECTION_ICONS.map((icon) => {
              const ItemIcon = SECTION_ICON_COMPONENTS[icon];
              return (
                <SelectItem key={icon} value={icon}>
                  <span className="flex items-center gap-2">
                    <ItemIcon className="h-4 w-4" aria-hidden="true" />
                    {icon}
                  </span>
                </SelectItem>
              );
            })}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.color}>Icon Colour</Label>
        <Select value={section.iconColor} onValueChange={(iconColor) => onChange({ iconColor })}>
          <SelectTrigger id={ids.color}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {colors.map((color) => (
              <SelectItem key={color} value={color}>
                <span className="flex items-center gap-2">
                  <span
                    className={cn('h-4 w-4 shrink-0 rounded bg-primary bg-gradient-to-br', color)}
                    aria-hidden="true"
                  />
                  <span className="font-mono text-xs">{color}</span>
                </span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.badgeText}>Badge Text</Label>
        <Input
          id={ids.badgeText}
          value={section.badge?.text ?? ''}
          maxLength={60}
          placeholder="Empty: no badge"
          onChange={(e) => onChange(badgeWithText(section, e.target.value))}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.badgeVariant}>Badge Style</Label>
        <Select
          value={section.badge?.variant ?? 'default'}
          disabled={!section.badge}
          onValueChange={(variant) => {
            if (section.badge) {
              onChange({
                badge: { ...section.badge, variant: variant as (typeof BADGE_VARIANTS)[number] },
              });
            }
          }}
        >
          <SelectTrigger id={ids.badgeVariant}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {BADGE_VARIANTS.map((variant) => (
              <SelectItem key={variant} value={variant}>
                {variant}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}

/** The optional note under the section header (who may use it, how to get access). */
function AccessInfoEditor({ section, onChange }: SectionPartProps) {
  const ids = { toggle: useId(), title: useId(), description: useId(), variant: useId() };
  const info = section.accessInfo;
  return (
    <div className="grid gap-3 rounded-md border p-4">
      <div className="flex items-center justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={ids.toggle}>Access Info</Label>
          <p className="text-xs text-muted-foreground">A highlighted note on who can use this script.</p>
        </div>
        <Switch
          id={ids.toggle}
          checked={info !== undefined}
          onCheckedChange={(on) => onChange({ accessInfo: on ? { ...NEW_ACCESS_INFO } : undefined })}
        />
      </div>
      {info && (
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
          <div className="grid gap-1.5">
            <Label htmlFor={ids.title}>Access Title</Label>
            <Input
              id={ids.title}
              value={info.title}
              maxLength={200}
              onChange={(e) => onChange({ accessInfo: { ...info, title: e.target.value } })}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.variant}>Access Style</Label>
            <Select
              value={info.variant}
              onValueChange={(variant) =>
                onChange({
                  accessInfo: { ...info, variant: variant as (typeof ACCESS_INFO_VARIANTS)[number] },
                })
              }
            >
              <SelectTrigger id={ids.variant}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {ACCESS_INFO_VARIANTS.map((variant) => (
                  <SelectItem key={variant} value={variant}>
                    {variant}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5 sm:col-span-2">
            <Label htmlFor={ids.description}>Access Description</Label>
            <Textarea
              id={ids.description}
              value={info.description}
              maxLength={1000}
              rows={2}
              onChange={(e) => onChange({ accessInfo: { ...info, description: e.target.value } })}
            />
          </div>
        </div>
      )}
    </div>
  );
}

/** Features as a list of lines; 'icon:text' picks the bullet icon. */
function FeatureListEditor({
  features,
  onChange,
}: {
  features: string[];
  onChange: (features: string[]) => void;
}) {
  const hintId = useId();
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Features</span>
        <Button variant="outline" size="sm" onClick={() => onChange([...features, ''])}>
          <Plus />
          Add Feature
        </Button>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {`One feature per row. Write icon:text to choose its bullet icon (${SECTION_ICONS.join(', ')}), e.g. zap:Live finds.`}
      </p>
      {features.length === 0 ? (
        <p className="text-sm text-muted-foreground">No features yet.</p>
      ) : (
        <ul className="grid gap-2">
          {features.map((feature, index) => (
            // Features are plain strings that may repeat; the position is what identifies a line.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="flex items-center gap-2">
              <Input
                aria-label={`Feature ${index + 1}`}
                aria-describedby={hintId}
                value={feature}
                maxLength={300}
                placeholder="icon:text"
                onChange={(e) => onChange(features.map((f, i) => (i === index ? e.target.value : f)))}
              />
              <Button
                variant="ghost"
                size="icon"
                className="h-8 w-8 shrink-0"
                aria-label={`Remove feature ${index + 1}`}
                title="Remove feature"
                onClick={() => onChange(features.filter((_, i) => i !== index))}
              >
                <X />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ButtonList({
  section,
  fileListId,
  actions,
}: {
  section: ScriptsPageSection;
  fileListId?: string;
  actions: SectionEditorActions;
}) {
  const buttons = byOrder(section.buttons);
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Buttons</span>
        <Button variant="outline" size="sm" onClick={actions.onAddButton}>
          <Plus />
          Add Button
        </Button>
      </div>
      {buttons.length === 0 ? (
        <p className="text-sm text-muted-foreground">No buttons yet.</p>
      ) : (
        <div className="grid gap-2">
          {buttons.map((button) => (
            <ScriptsPageButtonEditor
              key={button.id}
              button={button}
              fileListId={fileListId}
              canMoveUp={canMove(buttons, button.id, 'up')}
              canMoveDown={canMove(buttons, button.id, 'down')}
              onChange={(change) => actions.onButtonChange(button.id, change)}
              onMove={(direction) => actions.onButtonMove(button.id, direction)}
              onDelete={() => actions.onButtonDelete(button.id)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
