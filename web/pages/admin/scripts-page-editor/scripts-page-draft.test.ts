import { describe, expect, it } from 'vitest';
import type {
  ScriptsPageButton,
  ScriptsPageConfig,
  ScriptsPageSection,
} from '../../../../common/scripts-page.ts';
import {
  addButton,
  addSection,
  badgeWithText,
  byOrder,
  canMove,
  deleteButton,
  deleteSection,
  firstConfigProblem,
  moveButton,
  moveSection,
  newButtonId,
  newSectionId,
  prepareForSave,
  sameConfig,
  unusedId,
  updateButton,
  updateSection,
} from './scripts-page-draft.ts';

function button(id: string, order: number): ScriptsPageButton {
  return { id, label: id, file: `${id}.lua`, downloadType: 'file', variant: 'default', visible: true, order };
}

function section(id: string, order: number, buttons: ScriptsPageButton[] = []): ScriptsPageSection {
  return {
    id,
    title: id,
    description: '',
    icon: 'code',
    iconColor: 'from-green-500 to-emerald-600',
    order,
    visible: true,
    features: [],
    buttons,
  };
}

function config(sections: ScriptsPageSection[]): ScriptsPageConfig {
  return {
    key: 'default',
    headerTitle: 'Scripts',
    headerSubtitle: '',
    securityBadge: '',
    showBackButton: 1,
    sections,
  };
}

/** Section ids with their orders, in display order. */
function sectionOrder(draft: ScriptsPageConfig): string[] {
  return byOrder(draft.sections).map((s) => `${s.id}:${s.order}`);
}

function buttonOrder(draft: ScriptsPageConfig, sectionId: string): string[] {
  const owner = draft.sections.find((s) => s.id === sectionId);
  return byOrder(owner?.buttons ?? []).map((b) => `${b.id}:${b.order}`);
}

describe('scripts page draft', () => {
  it('adds a section with the spec defaults after the last one', () => {
    const draft = addSection(config([section('a', 0), section('b', 7)]), 'section-1');
    expect(draft.sections.at(-1)).toEqual({
      id: 'section-1',
      title: 'New Section',
      description: 'Section description',
      icon: 'gift',
      iconColor: 'from-blue-500 to-cyan-600',
      order: 8,
      visible: true,
      features: [],
      buttons: [],
    });
    expect(addSection(config([]), 'first').sections[0]?.order).toBe(0);
  });

  it('adds a button with the spec defaults after the section’s last button', () => {
    const draft = addButton(config([section('a', 0, [button('x', 0), button('y', 1)])]), 'a', 'button-1');
    expect(draft.sections[0]?.buttons.at(-1)).toEqual({
      id: 'button-1',
      label: 'New Button',
      file: 'script.lua',
      downloadType: 'file',
      variant: 'default',
      visible: true,
      order: 2,
    });
  });

  it('moves a section by swapping neighbours and renumbering from 0', () => {
    const start = config([section('a', 3), section('b', 5), section('c', 9)]);
    expect(sectionOrder(moveSection(start, 'c', 'up'))).toEqual(['a:0', 'c:1', 'b:2']);
    expect(sectionOrder(moveSection(start, 'a', 'down'))).toEqual(['b:0', 'a:1', 'c:2']);
  });

  it('leaves the first section where it is when moved up, and the last when moved down', () => {
    const start = config([section('a', 0), section('b', 1)]);
    expect(canMove(start.sections, 'a', 'up')).toBe(false);
    expect(canMove(start.sections, 'a', 'down')).toBe(true);
    expect(canMove(start.sections, 'b', 'down')).toBe(false);
    expect(sectionOrder(moveSection(start, 'a', 'up'))).toEqual(['a:0', 'b:1']);
    expect(sectionOrder(moveSection(start, 'b', 'down'))).toEqual(['a:0', 'b:1']);
  });

  it('renumbers the remaining sections after a delete', () => {
    const draft = deleteSection(config([section('a', 0), section('b', 1), section('c', 2)]), 'a');
    expect(sectionOrder(draft)).toEqual(['b:0', 'c:1']);
  });

  it('moves and deletes buttons inside their own section only', () => {
    const start = config([
      section('a', 0, [button('x', 0), button('y', 1), button('z', 2)]),
      section('b', 1, [button('w', 0)]),
    ]);
    expect(buttonOrder(moveButton(start, 'a', 'z', 'up'), 'a')).toEqual(['x:0', 'z:1', 'y:2']);
    expect(buttonOrder(deleteButton(start, 'a', 'x'), 'a')).toEqual(['y:0', 'z:1']);
    expect(buttonOrder(deleteButton(start, 'a', 'x'), 'b')).toEqual(['w:0']);
  });

  it('changes only the named section or button', () => {
    const start = config([section('a', 0, [button('x', 0)]), section('b', 1)]);
    const renamed = updateSection(start, 'b', { title: 'Premium' });
    expect(renamed.sections.map((s) => s.title)).toEqual(['a', 'Premium']);
    const hidden = updateButton(start, 'a', 'x', { visible: false });
    expect(hidden.sections[0]?.buttons[0]?.visible).toBe(false);
    expect(start.sections[0]?.buttons[0]?.visible).toBe(true);
  });

  it('removes the badge when its text is blank and keeps its variant otherwise', () => {
    const withBadge = { ...section('a', 0), badge: { text: 'NEW', variant: 'destructive' as const } };
    expect(badgeWithText(withBadge, '  ')).toEqual({ badge: undefined });
    expect(badgeWithText(withBadge, 'HOT')).toEqual({ badge: { text: 'HOT', variant: 'destructive' } });
    expect(badgeWithText(section('b', 0), 'FREE')).toEqual({ badge: { text: 'FREE', variant: 'default' } });
  });

  it('picks ids no section or button already has', () => {
    expect(unusedId('section', ['section-1', 'section-3'])).toBe('section-2');
    const draft = config([
      section('section-1', 0, [button('button-1', 0)]),
      section('b', 1, [button('button-2', 0)]),
    ]);
    expect(newSectionId(draft)).toBe('section-2');
    expect(newButtonId(draft)).toBe('button-3');
  });

  it('sees a removed optional part and key order as no change', () => {
    const saved = config([section('a', 0)]);
    const edited = updateSection(saved, 'a', { badge: { text: 'X', variant: 'default' } });
    expect(sameConfig(saved, edited)).toBe(false);
    expect(sameConfig(saved, updateSection(edited, 'a', { badge: undefined }))).toBe(true);
    const { sections, ...rest } = saved;
    const reordered = { sections, ...rest };
    expect(sameConfig(saved, reordered)).toBe(true);
  });

  it('saves with the default key and without blank feature lines', () => {
    const draft = { ...config([{ ...section('a', 0), features: ['zap:Fast', ' ', ''] }]), key: '' };
    const sent = prepareForSave(draft);
    expect(sent.key).toBe('default');
    expect(sent.sections[0]?.features).toEqual(['zap:Fast']);
  });

  it('names the first problem the server would refuse', () => {
    expect(firstConfigProblem(config([section('a', 0)]))).toBeNull();
    const longLabel = config([section('Free', 0, [{ ...button('x', 0), label: 'L'.repeat(101) }])]);
    expect(firstConfigProblem(longLabel)).toMatch(/^Section "Free", button "L+", label: /);
    const longTitle = { ...config([]), headerTitle: 'T'.repeat(201) };
    expect(firstConfigProblem(longTitle)).toMatch(/^Header title: /);
  });
});
