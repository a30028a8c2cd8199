/*
 * bench:scale's administrator: signs in with the admin secret as the console does, and holds a
 * dashboard's admin socket (/ws with the session cookie, server/features/fleet/admin.protocol.ts) on
 * one instance, telling of every `server_hop` frame as it arrives.
 */
import WebSocket from 'ws';
import { SESSION_COOKIE } from '../common/auth.ts';
import { absoluteNow } from './scale-hop-timer.ts';

/** Signs in on `baseUrl` (POST /api/admin/login, from the app's own origin) and returns the session cookie. */
export async function logIn(baseUrl: string, adminSecret: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ adminSecret }),
  });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${await res.text()}`);
  const session = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!session) throw new Error('admin login set no session cookie');
  return session.split(';', 1)[0]!;
}

/** Frames start with their type (server/realtime/frames.ts): only hops are parsed. */
const HOP_FRAME = '{"type":"server_hop"';

export interface AdminSocket {
  close(): Promise<void>;
}

/** Opens the admin socket on `baseUrl`; `onHop(botId, toJobId, at)` for each hop as it arrives. */
export function openAdminSocket(
  baseUrl: string,
  cookie: string,
  onHop: (botId: string, toJobId: string, at: number) => void,
): Promise<AdminSocket> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, {
    headers: { cookie },
    origin: baseUrl,
    perMessageDeflate: false,
  });
  socket.on('message', (data: Buffer) => {
    const at = absoluteNow();
    if (data.toString('utf8', 0, HOP_FRAME.length) !== HOP_FRAME) return;
    const { payload } = JSON.parse(String(data)) as { payload: { botId: string; toJobId: string } };
    onHop(payload.botId, payload.toJobId, at);
  });
  const close = () =>
    new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve();
      socket.once('close', () => resolve());
      socket.close(1000);
      setTimeout(() => {
        socket.terminate();
        resolve();
      }, 2_000).unref();
    });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ close }));
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`the admin socket was refused with ${res.statusCode}`)),
    );
    socket.once('error', reject);
  });
}
