/** Single-use challenge nonces: consumed by a conditional update, so a replay on any instance fails. */
export interface ChallengeNoncesTable {
  nonce: string;
  script_key_id: number;
  hardware_id: string;
  expires_at: number;
  used_at: number | null;
}
