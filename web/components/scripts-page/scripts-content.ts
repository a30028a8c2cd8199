import {
  Code,
  Crown,
  Download,
  Gift,
  Key,
  Lock,
  type LucideIcon,
  Rocket,
  Shield,
  Sparkles,
  Star,
  Zap,
} from 'lucide-react';

/** Section and feature icon names (common/scripts-page.ts SECTION_ICONS) to their lucide icons. */
export const SECTION_ICON_COMPONENTS = {
  gift: Gift,
  crown: Crown,
  star: Star,
  zap: Zap,
  shield: Shield,
  code: Code,
  download: Download,
  key: Key,
  lock: Lock,
  rocket: Rocket,
  sparkles: Sparkles,
} as const satisfies Record<string, LucideIcon>;

export type SectionIconName = keyof typeof SECTION_ICON_COMPONENTS;

export function isSectionIconName(name: string): name is SectionIconName {
  return Object.hasOwn(SECTION_ICON_COMPONENTS, name);
}

/**
 * Icon gradients the page can paint. iconColor is free text from the admin, but Tailwind only
 * generates classes it finds in the source: these strings are that source, so every preset here
 * renders (the admin editor can offer the same list). Anything else falls back to the primary colour.
 */
export const ICON_GRADIENT_PRESETS = [
  'from-blue-500 to-cyan-600',
  'from-green-500 to-emerald-600',
  'from-yellow-500 to-orange-600',
  'from-purple-500 to-pink-600',
  'from-red-500 to-rose-600',
  'from-indigo-500 to-purple-600',
  'from-cyan-500 to-blue-600',
  'from-orange-500 to-red-600',
  'from-pink-500 to-rose-600',
  'from-emerald-500 to-teal-600',
  'from-teal-500 to-cyan-600',
  'from-violet-500 to-fuchsia-600',
  'from-amber-500 to-yellow-600',
  'from-sky-500 to-indigo-600',
  'from-fuchsia-500 to-pink-600',
  'from-slate-500 to-gray-600',
] as const;

/** Anything with a `visible` flag and an `order`, as sections and buttons have. */
interface Orderable {
  visible?: boolean;
  order?: number;
}

/** The items to show: visible ones (missing flag = visible), sorted by order, ties keeping their place. */
export function visibleInOrder<T extends Orderable>(items: readonly T[] | undefined): T[] {
  return (items ?? [])
    .filter((item) => item.visible !== false)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

export interface ParsedFeature {
  icon: SectionIconName | null;
  text: string;
}

/** 'icon:text' picks the bullet icon when icon is a known name; any other string is plain text. */
export function parseFeature(feature: string): ParsedFeature {
  const colon = feature.indexOf(':');
  if (colon > 0) {
    const name = feature.slice(0, colon).trim().toLowerCase();
    if (isSectionIconName(name)) return { icon: name, text: feature.slice(colon + 1).trim() };
  }
  return { icon: null, text: feature };
}
