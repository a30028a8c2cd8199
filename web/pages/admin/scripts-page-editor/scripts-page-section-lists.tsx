import { Plus, X } from 'lucide-react';
import { useId } from 'react';
import type { ButtonProblemOf } from '@/components/scripts-page/script-section.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { type ScriptsPageSection, SECTION_ICONS } from '../../../../common/scripts-page.ts';
import { ScriptsPageButtonEditor } from './scripts-page-button-editor.tsx';
import { type ButtonChange, byOrder, canMove, type MoveDirection } from './scripts-page-draft.ts';

/* A section's two lists in the editor: its feature lines and its buttons. */

/** The title of a list in the section (features, buttons) with its add button beside it. */
function ListHeading({ title, addLabel, onAdd }: { title: string; addLabel: string; onAdd: () => void }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <span className="text-sm font-medium">{title}</span>
      <Button variant="outline" size="sm" onClick={onAdd}>
        <Plus />
        {addLabel}
      </Button>
    </div>
  );
}

/** Features as a list of lines; 'icon:text' picks the bullet icon. */
export function FeatureListEditor({
  features,
  onChange,
}: {
  features: string[];
  onChange: (features: string[]) => void;
}) {
  const hintId = useId();
  return (
    <div className="grid gap-2">
      <ListHeading title="Features" addLabel="Add Feature" onAdd={() => onChange([...features, ''])} />
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

/** What the section's buttons can be told to do. */
export interface ButtonListActions {
  onAddButton: () => void;
  onButtonChange: (buttonId: string, change: ButtonChange) => void;
  onButtonMove: (buttonId: string, direction: MoveDirection) => void;
  onButtonDelete: (buttonId: string) => void;
}

/** The section's buttons in order, each with what would fail for a visitor pressing it. */
export function ButtonList({
  section,
  fileListId,
  buttonProblem,
  actions,
}: {
  section: ScriptsPageSection;
  fileListId?: string;
  buttonProblem: ButtonProblemOf;
  actions: ButtonListActions;
}) {
  const buttons = byOrder(section.buttons);
  return (
    <div className="grid gap-2">
      <ListHeading title="Buttons" addLabel="Add Button" onAdd={actions.onAddButton} />
      {buttons.length === 0 ? (
        <p className="text-sm text-muted-foreground">No buttons yet.</p>
      ) : (
        <div className="grid gap-2">
          {buttons.map((button) => (
            <ScriptsPageButtonEditor
              key={button.id}
              button={button}
              fileListId={fileListId}
              problem={buttonProblem(button)}
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
