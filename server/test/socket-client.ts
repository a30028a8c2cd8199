import WebSocket from 'ws';
import type { ServerFrame } from '../../common/realtime.ts';

/** A real client socket with an inbox, so tests can wait for the frame they expect. */
export class TestClient {
  readonly frames: ServerFrame[] = [];
  private waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | null = null;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as ServerFrame);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
  }

  /** Waits for the first frame (after `from`) that matches. */
  async next(
    match: (f: ServerFrame) => boolean,
    { from = 0, timeoutMs = 3000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  ofType(type: string): ServerFrame[] {
    return this.frames.filter((f) => f.type === type);
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  async waitClosed(timeoutMs = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket did not close');
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.closed;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/**
 * Opens a socket; resolves with the client once open, or rejects with the refusal status. Like a
 * browser on the app's own page it sends the app's origin (`http://host:port` of `url`) as `Origin`;
 * `origin` plays another page, and `null` sends none (a non-browser client).
 */
export function connectTestClient(
  url: string,
  cookie?: string,
  { origin = new URL(url.replace(/^ws/, 'http')).origin }: { origin?: string | null } = {},
): Promise<TestClient> {
  const ws = new WebSocket(url, {
    headers: cookie ? { cookie } : {},
    ...(origin === null ? {} : { origin }),
  });
  const client = new TestClient(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
