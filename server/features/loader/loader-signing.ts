import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { Db } from '../../db/index.ts';

/** The header every Lua answer of the loader carries: `ed25519=<base64 signature of the body>`. */
export const LOADER_SIGNATURE_HEADER = 'x-scanline-signature';

/** Signatures of fixed texts remembered at most, before the memory is cleared. */
const MAX_REMEMBERED = 10_000;
/** Answers remembered per served script (each a copy of it, e.g. 20 KiB: 256 of them 5 MiB). */
const MAX_ANSWERS_PER_SCRIPT = 256;

/** A served script's bytes as sent (preamble line, then the script) and their signature header value. */
export interface SignedScript {
  bytes: Buffer;
  signature: string;
}

/**
 * Signs what the loader answers, with the server's Ed25519 key, so a client that holds the public key
 * (GET /api/script/loader-key) can tell a genuine answer from one a proxy, a cache or a look-alike
 * loader changed. The signature covers the body exactly as sent (a served script's preamble line
 * included). A served script's signature is remembered per script body and preamble, and a fixed
 * text's (a refusal) per text, so the hot path signs once and then looks up.
 */
export class LoaderSigner {
  private readonly byScript = new WeakMap<Buffer, Map<string, SignedScript>>();
  private readonly byText = new Map<string, string>();

  constructor(
    private readonly privateKey: KeyObject,
    /** The raw 32-byte public key, base64. */
    readonly publicKey: string,
  ) {}

  /** The header value for `body`, signed now. */
  sign(body: Buffer | string): string {
    return `ed25519=${sign(null, typeof body === 'string' ? Buffer.from(body, 'utf8') : body, this.privateKey).toString('base64')}`;
  }

  /** The header value for a fixed text (a refusal chunk), remembered. */
  signText(text: string): string {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    if (this.byText.size >= MAX_REMEMBERED) this.byText.clear();
    const signature = this.sign(text);
    this.byText.set(text, signature);
    return signature;
  }

  /**
   * A served script's answer: `preamble()` followed by `body`, and its header value. Remembered per
   * body (a cached script's Buffer: dropped with it when the script changes) and `caller` (what the
   * preamble depends on: the site and the key's number), so a warm call neither signs, builds the
   * preamble nor copies the script: it writes the same bytes again, as a script served from memory
   * would. Each script's memory is bounded (MAX_ANSWERS_PER_SCRIPT copies of it; the one remembered
   * longest goes first).
   */
  signedScript(body: Buffer, caller: string, preamble: () => string): SignedScript {
    let answers = this.byScript.get(body);
    if (answers === undefined) {
      answers = new Map();
      this.byScript.set(body, answers);
    }
    const known = answers.get(caller);
    if (known !== undefined) return known;
    if (answers.size >= MAX_ANSWERS_PER_SCRIPT) answers.delete(answers.keys().next().value as string);
    const bytes = Buffer.concat([Buffer.from(preamble(), 'utf8'), body]);
    const answer = { bytes, signature: this.sign(bytes) };
    answers.set(caller, answer);
    return answer;
  }
}

/**
 * The signer with the key in the database, made there by the first instance that starts (two starting
 * at once: the second insert does nothing and both read the first one's key).
 */
export async function loadLoaderSigner(db: Db, now: number): Promise<LoaderSigner> {
  const read = () => db.selectFrom('loader_signing_keys').selectAll().where('id', '=', 1).executeTakeFirst();
  let row = await read();
  if (!row) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'jwk' }).x ?? '';
    await db
      .insertInto('loader_signing_keys')
      .values({
        id: 1,
        private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        public_key: Buffer.from(raw, 'base64url').toString('base64'),
        created_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await read();
    if (!row) throw new Error('the loader signing key could not be stored');
  }
  const privateKey = createPrivateKey({
    key: Buffer.from(row.private_key, 'base64'),
    format: 'der',
    type: 'pkcs8',
  });
  return new LoaderSigner(privateKey, row.public_key);
}
