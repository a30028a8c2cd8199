import type { Generated } from 'kysely';
import type { ScriptAccessType, ScriptLocation } from '../../../common/scripts.ts';

/** One script file: its current content lives on the row so reads need no join. */
export interface ScriptsTable {
  id: Generated<number>;
  /** Unique; checked with scriptFilenameProblem before it gets here. */
  filename: string;
  /**
   * scriptNameKey(filename), unique: what lookups by name match, so `Foo.lua` finds `foo.lua`. Null
   * only on a row that shared its key with an older one when the column arrived (see its migration).
   */
  name_key: string | null;
  /** scriptNameSkeleton(filename), unique: no two scripts may look alike. Null as name_key. */
  name_skeleton: string | null;
  /** 'project' (shipped in scripts/, undeletable) or 'hosted-scripts' (created or uploaded by the admin). */
  location: ScriptLocation;
  /** 'FREE' or 'PREMIUM'. */
  access_type: Generated<ScriptAccessType>;
  /** 1: anyone may download a FREE script from /api/hosted-scripts; 0: admins only. */
  is_public: number;
  current_version: number;
  /** The current version's text, exactly as saved or uploaded (BOM and CRLF kept). */
  content: string;
  /** UTF-8 bytes of `content`. */
  size: number;
  /** Lines of `content`, kept so lists need not read the content. */
  line_count: number;
  /** Project scripts: SHA-256 (hex) of the file last seeded from disk, so a new release is noticed. */
  shipped_sha256: string | null;
  created_at: number;
  updated_at: number;
}

/** Every version of every script, kept for the history (version 1 is the first save). */
export interface ScriptVersionsTable {
  id: Generated<number>;
  script_id: number;
  version: number;
  content: string;
  notes: string | null;
  created_at: number;
}

/** The public scripts page content, keyed ('default'). */
export interface ScriptsPageConfigTable {
  key: string;
  /** JSON ScriptsPageConfig without the key. */
  config: string;
  updated_at: number;
}
