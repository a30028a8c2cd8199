import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/*
 * A mail server on loopback for the order-mail tests: a real SMTP server (the smtp-server package,
 * which speaks the protocol as Postfix does: EHLO, MAIL FROM, RCPT TO, DATA), no TLS, any or no
 * login. It keeps every message it accepted, refuses the recipients it is told to with 550 (as a
 * server refuses an unknown mailbox), and can go down (its port refuses connections) and come back
 * on the same port.
 */

export interface SinkMessage {
  from: string;
  to: string[];
  /** The raw message: headers, a blank line, the body. */
  raw: string;
  /** The body with quoted-printable soft breaks undone (what a reader sees of a plain-text mail). */
  text: string;
  subject: string;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:port */
  url: string;
  messages: SinkMessage[];
  /** RCPT TO for this address is answered 550 5.1.1 from now on. */
  refuseRecipient(address: string): void;
  /** Stops listening (connections are refused) until bringUp(). */
  takeDown(): Promise<void>;
  bringUp(): Promise<void>;
  /** Resolves once `count` messages arrived (or rejects after `timeoutMs`). */
  waitForMessages(count: number, timeoutMs?: number): Promise<SinkMessage[]>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

function parse(raw: string, from: string, to: string[]): SinkMessage {
  const split = raw.indexOf('\r\n\r\n');
  const headers = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1]?.trim() ?? '';
  const quoted = /^Content-Transfer-Encoding: quoted-printable/im.test(headers);
  return { from, to, raw, subject, text: quoted ? decodeQuotedPrintable(body) : body };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const refused = new Set<string>();
  const messages: SinkMessage[] = [];
  const waiters = new Set<() => void>();

  const makeServer = () =>
    new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refused.has(address.address.toLowerCase())) {
          const error = Object.assign(new Error('5.1.1 Recipient address rejected: User unknown'), {
            responseCode: 550,
          });
          callback(error);
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const to = session.envelope.rcptTo.map((r) => r.address);
          messages.push(parse(Buffer.concat(chunks).toString('utf8'), from, to));
          for (const wake of waiters) wake();
          callback();
        });
      },
    });

  let server = makeServer();
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await listen();

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuseRecipient(address) {
      refused.add(address.toLowerCase());
    },
    takeDown: stop,
    async bringUp() {
      server = makeServer();
      await listen();
    },
    waitForMessages(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(messages);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`smtp sink: ${messages.length} of ${count} messages within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: stop,
  };
}
