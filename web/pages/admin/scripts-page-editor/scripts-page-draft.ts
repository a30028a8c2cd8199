import {
  type ScriptsPageButton,
  type ScriptsPageConfig,
  ScriptsPageConfigSchema,
  type ScriptsPageSection,
} from '../../../../common/scripts-page.ts';

/*
 * The scripts page editor's draft rules, as pure functions over the whole config: every edit returns
 * a new config, so the screen can compare the draft with what the server holds.
 */

// The move controls are shared form pieces; the draft rules speak their direction.
import type { MoveDirection } from '../shared/field-controls.tsx';

export type { MoveDirection };

/**
 * What a new section starts as (spec section 4), with no features and no buttons; id and order are
 * filled in when it is added.
 */
export const NEW_SECTION_DEFAULTS: Readonly<
  Omit<ScriptsPageSection, 'id' | 'order' | 'features' | 'buttons'>
> = {
  title: 'New Section',
  description: 'Section description',
  icon: 'gift',
  iconColor: 'from-blue-500 to-cyan-600',
  visible: true,
};

/** What a new button starts as (spec section 4); id and order are filled in when it is added. */
export const NEW_BUTTON_DEFAULTS: Readonly<Omit<ScriptsPageButton, 'id' | 'order'>> = {
  label: 'New Button',
  file: 'script.lua',
  downloadType: 'file',
  variant: 'default',
  visible: true,
};

/** What switching a section's access note on shows until the admin writes their own. */
export const NEW_ACCESS_INFO: Readonly<NonNullable<ScriptsPageSection['accessInfo']>> = {
  title: 'Access information',
  description: 'Who can use this script, and how to get access.',
  variant: 'info',
};

interface Ordered {
  id: string;
  order: number;
}

/** Items sorted by order; ties keep their place (Array.prototype.sort is stable). */
export function byOrder<T extends Ordered>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.order - b.order);
}

/** Orders 0, 1, 2… in the given sequence; items already numbered right are kept as they are. */
function renumber<T extends Ordered>(sorted: readonly T[]): T[] {
  return sorted.map((item, index) => (item.order === index ? item : { ...item, order: index }));
}

/** The order that puts a new item after every existing one. */
function orderAtEnd(items: readonly Ordered[]): number {
  return items.reduce((end, item) => Math.max(end, item.order + 1), 0);
}

/** Whether the item has a neighbour on that side (the first cannot go up, the last cannot go down). */
export function canMove(items: readonly Ordered[], id: string, direction: MoveDirection): boolean {
  const sorted = byOrder(items);
  const index = sorted.findIndex((item) => item.id === id);
  if (index < 0) return false;
  return direction === 'up' ? index > 0 : index < sorted.length - 1;
}

/** Swaps the item with its neighbour and renumbers from 0; unchanged when there is no neighbour. */
function moveItem<T extends Ordered>(items: readonly T[], id: string, direction: MoveDirection): T[] {
  if (!canMove(items, id, direction)) return [...items];
  const sorted = byOrder(items);
  const index = sorted.findIndex((item) => item.id === id);
  const other = direction === 'up' ? index - 1 : index + 1;
  [sorted[index], sorted[other]] = [sorted[other] as T, sorted[index] as T];
  return renumber(sorted);
}

/** Drops the item and renumbers the rest from 0, so orders stay without gaps. */
function removeItem<T extends Ordered>(items: readonly T[], id: string): T[] {
  return renumber(byOrder(items).filter((item) => item.id !== id));
}

/** `prefix-N` with the smallest N ≥ 1 not already taken. */
export function unusedId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let n = 1;
  while (used.has(`${prefix}-${n}`)) n += 1;
  return `${prefix}-${n}`;
}

/** A fresh section id for this config. */
export function newSectionId(config: ScriptsPageConfig): string {
  return unusedId(
    'section',
    config.sections.map((section) => section.id),
  );
}

/** A fresh button id, unique across every section (the public page keys buttons by id). */
export function newButtonId(config: ScriptsPageConfig): string {
  return unusedId(
    'button',
    config.sections.flatMap((section) => section.buttons.map((button) => button.id)),
  );
}

/** Adds a section with the spec's defaults after every other section. */
export function addSection(config: ScriptsPageConfig, id: string): ScriptsPageConfig {
  const section: ScriptsPageSection = {
    id,
    ...NEW_SECTION_DEFAULTS,
    features: [],
    buttons: [],
    order: orderAtEnd(config.sections),
  };
  return { ...config, sections: [...config.sections, section] };
}

export type SectionChange = Partial<Omit<ScriptsPageSection, 'id'>>;

/** Applies `change` to one section (a key set to undefined removes that optional part). */
export function updateSection(
  config: ScriptsPageConfig,
  id: string,
  change: SectionChange,
): ScriptsPageConfig {
  return {
    ...config,
    sections: config.sections.map((section) => (section.id === id ? { ...section, ...change } : section)),
  };
}

export function moveSection(
  config: ScriptsPageConfig,
  id: string,
  direction: MoveDirection,
): ScriptsPageConfig {
  return { ...config, sections: moveItem(config.sections, id, direction) };
}

export function deleteSection(config: ScriptsPageConfig, id: string): ScriptsPageConfig {
  return { ...config, sections: removeItem(config.sections, id) };
}

function mapButtons(
  config: ScriptsPageConfig,
  sectionId: string,
  change: (buttons: ScriptsPageButton[]) => ScriptsPageButton[],
): ScriptsPageConfig {
  return {
    ...config,
    sections: config.sections.map((section) =>
      section.id === sectionId ? { ...section, buttons: change(section.buttons) } : section,
    ),
  };
}

/** Adds a button with the spec's defaults after the section's other buttons. */
export function addButton(config: ScriptsPageConfig, sectionId: string, id: string): ScriptsPageConfig {
  return mapButtons(config, sectionId, (buttons) => [
    ...buttons,
    { id, ...NEW_BUTTON_DEFAULTS, order: orderAtEnd(buttons) },
  ]);
}

export type ButtonChange = Partial<Omit<ScriptsPageButton, 'id'>>;

export function updateButton(
  config: ScriptsPageConfig,
  sectionId: string,
  buttonId: string,
  change: ButtonChange,
): ScriptsPageConfig {
  return mapButtons(config, sectionId, (buttons) =>
    buttons.map((button) => (button.id === buttonId ? { ...button, ...change } : button)),
  );
}

export function moveButton(
  config: ScriptsPageConfig,
  sectionId: string,
  buttonId: string,
  direction: MoveDirection,
): ScriptsPageConfig {
  return mapButtons(config, sectionId, (buttons) => moveItem(buttons, buttonId, direction));
}

export function deleteButton(
  config: ScriptsPageConfig,
  sectionId: string,
  buttonId: string,
): ScriptsPageConfig {
  return mapButtons(config, sectionId, (buttons) => removeItem(buttons, buttonId));
}

/** The badge change for new badge text: blank text removes the badge, else the variant is kept. */
export function badgeWithText(section: ScriptsPageSection, text: string): SectionChange {
  if (text.trim() === '') return { badge: undefined };
  return { badge: { text, variant: section.badge?.variant ?? 'default' } };
}

/** Same content, whatever the key order, with an absent optional part equal to an undefined one. */
export function sameConfig(a: ScriptsPageConfig, b: ScriptsPageConfig): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  });
}

/** What Save sends: the key defaults to 'default', and blank feature lines are dropped. */
export function prepareForSave(config: ScriptsPageConfig): ScriptsPageConfig {
  return {
    ...config,
    key: config.key || 'default',
    sections: config.sections.map((section) => ({
      ...section,
      features: section.features.filter((feature) => feature.trim() !== ''),
    })),
  };
}

const FIELD_NAMES: Record<string, string> = {
  headerTitle: 'Header title',
  headerSubtitle: 'Header subtitle',
  securityBadge: 'Security badge',
  showBackButton: 'Back button',
  sections: 'Sections',
  buttons: 'Buttons',
  features: 'Features',
};

/**
 * The first reason the server would refuse this config (the same schema it validates with), said
 * in the editor's terms, e.g. 'Section "Free Scanner", button "Copy": label: Too big…'; null when
 * the config is valid.
 */
export function firstConfigProblem(config: ScriptsPageConfig): string | null {
  const result = ScriptsPageConfigSchema.safeParse(config);
  if (result.success) return null;
  const issue = result.error.issues[0];
  if (!issue) return 'The configuration is not valid';
  const [first, sectionIndex, part, itemIndex, field] = issue.path;
  const where: string[] = [];
  if (first === 'sections' && typeof sectionIndex === 'number') {
    const section = config.sections[sectionIndex];
    where.push(`Section "${section?.title ?? sectionIndex + 1}"`);
    if (part === 'buttons' && typeof itemIndex === 'number') {
      where.push(`button "${section?.buttons[itemIndex]?.label ?? itemIndex + 1}"`);
      if (field !== undefined) where.push(String(field));
    } else if (part === 'features' && typeof itemIndex === 'number') {
      where.push(`feature ${itemIndex + 1}`);
    } else if (part !== undefined) {
      where.push(FIELD_NAMES[String(part)] ?? String(part));
    }
  } else if (first !== undefined) {
    where.push(FIELD_NAMES[String(first)] ?? String(first));
  }
  return where.length > 0 ? `${where.join(', ')}: ${issue.message}` : issue.message;
}
