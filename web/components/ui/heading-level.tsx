import { type ComponentProps, createContext, type ReactNode, useContext } from 'react';

/*
 * Headings that follow the page's outline. A screen's root (the admin shell's <main>, under the
 * screen's h1) sets the level of the heading it sits under; each Card goes one level deeper, so a
 * card's title is one below the heading around it and no level is ever skipped (axe: heading-order).
 * Outside a root the level is unset and titles keep their fixed tags, as the public pages use them.
 */

const HeadingLevelContext = createContext<number | undefined>(undefined);

/** The level of the heading that heads what `children` render (1 under a screen's h1). */
export function HeadingLevel({ level, children }: { level: number; children: ReactNode }) {
  return <HeadingLevelContext.Provider value={level}>{children}</HeadingLevelContext.Provider>;
}

/** The level of the heading around the caller, or undefined outside any root. */
export function useHeadingLevel(): number | undefined {
  return useContext(HeadingLevelContext);
}

export type HeadingTag = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

/** The tag of a heading one level below the one around it; `fallback` outside any root. */
export function useSubheadingTag(fallback: HeadingTag): HeadingTag {
  const level = useHeadingLevel();
  return level === undefined ? fallback : (`h${Math.min(Math.max(level + 1, 1), 6)}` as HeadingTag);
}

/** A heading one level below the one around it (h3 outside any root). */
export function Subheading({ className, ...props }: ComponentProps<'h3'>) {
  const Tag = useSubheadingTag('h3');
  return <Tag className={className} {...props} />;
}
