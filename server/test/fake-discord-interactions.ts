import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Discord's side of HTTP interactions, for tests: an Ed25519 key pair the test makes (its public key
 * as the Developer Portal shows it, 64 hex characters), interactions built as Discord sends them and
 * signed as Discord signs them (`X-Signature-Ed25519` = hex signature of timestamp + raw body), posted
 * to the app over loopback HTTP; and a recorder of the follow-ups the app posts back to
 * `/webhooks/{applicationId}/{token}` after deferring (the REST recorder of every other call is
 * fake-discord.ts's).
 */
export interface InteractionSigner {
  /** What DISCORD_PUBLIC_KEY takes. */
  publicKeyHex: string;
  applicationId: string;
  /** Signs `body` at `timestampS` (Unix seconds) and returns the two headers Discord sends. */
  headers(body: string, timestampS: number): Record<string, string>;
}

/** An Ed25519 key pair and an application id, as a Discord application has them. */
export function makeInteractionSigner(applicationId = '1100000000000000001'): InteractionSigner {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // The SPKI DER of an Ed25519 key ends with its 32 raw bytes.
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return {
    publicKeyHex: raw.toString('hex'),
    applicationId,
    headers(body, timestampS) {
      const timestamp = String(timestampS);
      const signature = sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
      return {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      };
    },
  };
}

export interface CommandOptions {
  userId?: string;
  /** The member's role ids (a guild command); omit `guildId: null` for a direct message. */
  roles?: string[];
  guildId?: string | null;
  options?: { name: string; type: number; value: string | number }[];
}

/** A slash command (type 2) as Discord posts it, run by a guild member unless `guildId` is null. */
export function slashCommand(signer: InteractionSigner, name: string, given: CommandOptions = {}) {
  const user = { id: given.userId ?? '2200000000000000001', username: 'buyer' };
  const guildId = given.guildId === undefined ? '3300000000000000001' : given.guildId;
  return {
    id: snowflake(),
    application_id: signer.applicationId,
    type: 2,
    token: `tok-${randomBytes(16).toString('hex')}`,
    version: 1,
    data: { id: snowflake(), name, type: 1, ...(given.options ? { options: given.options } : {}) },
    ...(guildId === null
      ? { user }
      : { guild_id: guildId, member: { user, roles: given.roles ?? [], permissions: '0' } }),
  };
}

/** A PING, as Discord sends when the Interactions Endpoint URL is saved. */
export function pingInteraction(signer: InteractionSigner) {
  return { id: snowflake(), application_id: signer.applicationId, type: 1, token: 'ping-token', version: 1 };
}

function snowflake(): string {
  return (1_000_000_000_000_000_000n + BigInt(randomBytes(6).readUIntBE(0, 6))).toString();
}

/** Posts `body` (an object, or exact text) signed at `timestampS` to the app's interactions URL. */
export async function postInteraction(
  signer: InteractionSigner,
  appUrl: string,
  body: unknown,
  timestampS: number,
  headers: (signed: Record<string, string>) => Record<string, string> = (signed) => signed,
): Promise<{ status: number; json: any; headers: Headers }> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${appUrl}/api/discord/interactions`, {
    method: 'POST',
    headers: headers(signer.headers(text, timestampS)),
    body: text,
  });
  const raw = await response.text();
  return { status: response.status, json: raw ? JSON.parse(raw) : null, headers: response.headers };
}

export interface RecordedFollowup {
  applicationId: string;
  token: string;
  body: any;
}

/** Discord's follow-up webhook on loopback: records each POST /webhooks/{app}/{token}, answers 200. */
export async function startFollowupRecorder(): Promise<{
  apiUrl: string;
  followups: RecordedFollowup[];
  next(): Promise<RecordedFollowup>;
  close(): Promise<void>;
}> {
  const followups: RecordedFollowup[] = [];
  const waiting: ((followup: RecordedFollowup) => void)[] = [];
  /** Follow-ups `next()` has handed out. */
  let consumed = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/api\/v10\/webhooks\/(\d+)\/([^/?]+)$/.exec(request.url ?? '');
      if (request.method !== 'POST' || !match?.[1] || !match[2]) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: '404: Not Found', code: 0 }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const followup = { applicationId: match[1], token: decodeURIComponent(match[2]), body };
      followups.push(followup);
      const waiter = waiting.shift();
      if (waiter) {
        consumed++;
        waiter(followup);
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: snowflake(), ...body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/v10`,
    followups,
    next: () => {
      const ready = followups[consumed];
      if (ready) {
        consumed++;
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
