/** Who does the work named `name` for the cluster, until when. */
export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}
