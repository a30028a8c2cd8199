import { SCRIPT_TEXTS, type ScriptSummary, UNIVERSAL_SCRIPT_FILE } from '../../../../common/scripts.ts';

/** The script the screen opens on: the shipped universal script when present, else the first listed. */
export function defaultScriptName(scripts: readonly ScriptSummary[]): string | null {
  if (scripts.some((s) => s.name === UNIVERSAL_SCRIPT_FILE)) return UNIVERSAL_SCRIPT_FILE;
  return scripts[0]?.name ?? null;
}

/** The admin's choice while it still exists (it may have been deleted meanwhile), else the default. */
export function selectedScriptName(scripts: readonly ScriptSummary[], chosen: string | null): string | null {
  if (chosen !== null && scripts.some((s) => s.name === chosen)) return chosen;
  return defaultScriptName(scripts);
}

/** Why the script cannot be deleted, or null when it can. The last-script rule comes first (spec). */
export function scriptDeleteBlocker(script: ScriptSummary, scriptCount: number): string | null {
  if (scriptCount <= 1) return 'Cannot delete the last script';
  if (script.location === 'project') return SCRIPT_TEXTS.projectScriptDelete;
  return null;
}
