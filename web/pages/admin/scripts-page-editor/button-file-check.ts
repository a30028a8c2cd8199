import { buttonFileName } from '@/components/scripts-page/script-section.tsx';
import { visibleInOrder } from '@/components/scripts-page/scripts-content.ts';
import type { ScriptFileRecord } from '../../../../common/scripts.ts';
import type { ScriptsPageButton, ScriptsPageConfig } from '../../../../common/scripts-page.ts';

/*
 * Whether a button of the scripts page works for a visitor, checked against the files the File
 * Manager lists (/api/admin/all-scripts/list): a download needs a file that is hosted and open to
 * everyone (public and FREE, as /api/hosted-scripts/{name} serves it without a session); a copied
 * loader needs a hosted file (a PREMIUM one asks for the buyer's key, as meant).
 */

type HostedFile = Pick<ScriptFileRecord, 'filename' | 'isPublic' | 'accessType'>;

/** A script name as the server looks it up: names differing only in case are one script (scriptNameKey). */
const nameKey = (filename: string) => filename.normalize('NFC').toLowerCase();

/** What a visitor pressing `button` would run into with these files, in the operator's words; null when it works. */
export function buttonFileProblem(button: ScriptsPageButton, files: readonly HostedFile[]): string | null {
  const name = buttonFileName(button);
  const file = files.find((candidate) => nameKey(candidate.filename) === nameKey(name));
  if (button.downloadType === 'script') {
    return file ? null : `${name} is not in the File Manager: the loader it copies finds no script.`;
  }
  if (!file) return `${name} is not in the File Manager: visitors who press it get "Download Failed".`;
  if (!file.isPublic || file.accessType !== 'FREE') {
    return `${name} is not a public FREE file: visitors who press it get "Download Failed".`;
  }
  return null;
}

export interface BrokenButton {
  section: string;
  label: string;
  problem: string;
}

/** The buttons visitors will see (visible, in visible sections) that fail, in page order. */
export function brokenButtons(config: ScriptsPageConfig, files: readonly HostedFile[]): BrokenButton[] {
  return visibleInOrder(config.sections).flatMap((section) =>
    visibleInOrder(section.buttons).flatMap((button) => {
      const problem = buttonFileProblem(button, files);
      return problem ? [{ section: section.title, label: button.label, problem }] : [];
    }),
  );
}
