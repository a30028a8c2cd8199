/** The loader's Ed25519 signing key: one row, id 1 (see loader-signing.ts). */
export interface LoaderSigningKeysTable {
  id: number;
  /** PKCS#8 DER, base64. */
  private_key: string;
  /** The raw 32-byte public key, base64 (GET /api/script/loader-key). */
  public_key: string;
  created_at: number;
}
