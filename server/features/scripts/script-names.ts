import unhomoglyph from 'unhomoglyph';

/*
 * When two script names are one script, and when a new name passes for another. Names are what a
 * script user types into the loader URL and what the admin reads in lists, so a name must not be able
 * to pose as another: `Foo.lua` is `foo.lua`, and a new name that merely looks like an existing one
 * (Cyrillic 'о' for Latin 'o', fullwidth letters, 'rn' for 'm') is refused.
 */

/**
 * Format characters (Unicode category Cf): the bidi embeddings, overrides, isolates and marks
 * (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) that make `evil\u202Eaul.lua` display as
 * `evilaul.lua` backwards, and the zero-width ones that make two names differ invisibly.
 */
const INVISIBLE = /\p{Cf}/u;

/** The scripts whose letters pass for one another (Unicode's confusables are mostly among these). */
const LOOKALIKE_SCRIPTS = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
] as const;

/**
 * A name's identity: two names with the same key are one script. Canonically equivalent forms (NFC)
 * and letter case do not count, the same on SQLite and PostgreSQL (the key is stored, not computed
 * by either database's collation).
 */
export function scriptNameKey(filename: string): string {
  return filename.normalize('NFC').toLowerCase();
}

/**
 * What a name looks like: Unicode's confusable skeleton (UTS #39: NFD, map through confusables.txt,
 * which unhomoglyph ships, NFD again) of its lower-cased form, lower-cased again since the map's
 * targets may be capitals. Two names with one skeleton read the same (fullwidth and mathematical
 * letters and ligatures included); a script's key always maps to one skeleton.
 */
export function scriptNameSkeleton(filename: string): string {
  return unhomoglyph(filename.normalize('NFD').toLowerCase()).normalize('NFD').toLowerCase();
}

/** `U+202E` */
function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why a new script may not take this name (besides scriptFilenameProblem's rules), or null: invisible
 * or text-direction characters, or letters of Latin, Cyrillic and Greek mixed (in the part before
 * `.lua`, which is Latin whatever the name).
 */
export function newScriptNameProblem(filename: string): string | null {
  const invisible = INVISIBLE.exec(filename);
  if (invisible) {
    return `filename must not contain invisible or text-direction characters (${codePoint(invisible[0])})`;
  }
  const stem = filename.replace(/\.lua$/i, '');
  const mixed = LOOKALIKE_SCRIPTS.filter(([, letters]) => letters.test(stem)).map(([name]) => name);
  if (mixed.length > 1) return `filename must not mix ${mixed.join(' and ')} letters, which can look alike`;
  return null;
}

export function lookalikeNameText(filename: string, existing: string): string {
  return `${filename} looks like the existing script ${existing}: choose a name that reads differently`;
}
