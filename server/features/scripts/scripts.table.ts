/** The public scripts page content, keyed ('default'). */
export interface ScriptsPageConfigTable {
  key: string;
  /** JSON ScriptsPageConfig without the key. */
  config: string;
  updated_at: number;
}
