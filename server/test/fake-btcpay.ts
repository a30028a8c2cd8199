import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  checkoutPage,
  createInvoice,
  dueOn,
  type FakeInvoice,
  type FakeStore,
  type FakeWebhookRequest,
  type FakeWebhookType,
  invoiceData,
  payAtCheckout,
  paymentMethodsData,
  receivePayment,
  type StatusChangeOptions,
  signedWebhook,
  statusAfter,
  type WebhookOptions,
} from './fake-btcpay-invoices.ts';

export type {
  FakeInvoice,
  FakeInvoiceStatus,
  FakeWebhookRequest,
  FakeWebhookType,
  StatusChangeOptions,
  WebhookOptions,
} from './fake-btcpay-invoices.ts';

/**
 * A BTCPay Server stand-in on loopback for the payments tests and the browser test: the Greenfield
 * calls the app makes (create and get an invoice, get the store), each checking
 * `Authorization: token {apiKey}` (401) and the store id (404); a checkout page per invoice
 * (`GET /i/{id}`) whose "Pay invoice" button settles it, sends the signed InvoiceSettled webhook and
 * sends the buyer back to the invoice's redirectURL; signed webhooks on demand (redeliveries, a bad
 * signature); and a switch to take it down (503). This file is the HTTP side; the invoices, their
 * statuses and webhooks are in fake-btcpay-invoices.ts.
 */

export interface FakeBtcpay {
  /** http://127.0.0.1:port */
  origin: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string;
  /** Where webhooks are posted (the app's /api/payments/btcpay/webhook). */
  setWebhookUrl(url: string): void;
  /** Every invoice created, by id. */
  invoices: Map<string, FakeInvoice>;
  /** The one invoice whose metadata.orderId is `orderId`. */
  invoiceOfOrder(orderId: string): FakeInvoice | undefined;
  /** Marks the invoice Settled and (unless webhook: false) sends InvoiceSettled; the webhook's answer status, or null. */
  settle(invoiceId: string, options?: StatusChangeOptions): Promise<number | null>;
  expire(invoiceId: string, options?: StatusChangeOptions): Promise<number | null>;
  invalidate(invoiceId: string, options?: StatusChangeOptions): Promise<number | null>;
  /** Marks the invoice Processing (paid, waiting for confirmations), sending InvoiceProcessing. */
  process(invoiceId: string, options?: StatusChangeOptions): Promise<number | null>;
  /** A payment of `amount` (default: what is still due) arrives: receivePayment; its webhooks unless webhook: false. */
  pay(invoiceId: string, options?: { amount?: string; webhook?: boolean }): Promise<number | null>;
  /** The webhook BTCPay would send, without sending it (for app.inject). */
  webhookRequest(invoiceId: string, type: FakeWebhookType, options?: WebhookOptions): FakeWebhookRequest;
  /** Posts a signed webhook to the webhook URL; the answer's status. */
  sendWebhook(invoiceId: string, type: FakeWebhookType, options?: WebhookOptions): Promise<number>;
  /** Every request answers 503 until bringUp(). */
  takeDown(): void;
  bringUp(): void;
  /** Greenfield and checkout requests received, answered or not. */
  requests: number;
  /** Each of those requests: method, path and the Authorization header it carried. */
  received: Array<{ method: string; path: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

export interface FakeBtcpayOptions {
  storeId?: string;
  apiKey?: string;
  webhookSecret?: string;
  webhookUrl?: string;
  /** How long a new invoice stays open (default 15 minutes, as BTCPay's default). */
  invoiceTtlMs?: number;
  /** Epoch milliseconds for createdTime and expirationTime; pass the app's (fake) clock. */
  now?: () => number;
  storeName?: string;
  port?: number;
  /** Play a BTCPay older than 2.1.2: invoices without paidAmount (their payment methods say it). */
  legacy?: boolean;
  /** Delivers a webhook other than over HTTP (an app.inject test, whose app does not listen); its answer's status. */
  post?: (request: FakeWebhookRequest) => Promise<number>;
}

export async function startFakeBtcpay(options: FakeBtcpayOptions = {}): Promise<FakeBtcpay> {
  const storeId = options.storeId ?? 'FakeStore1111111111111111111111111111111111';
  const apiKey = options.apiKey ?? randomBytes(20).toString('hex');
  const webhookSecret = options.webhookSecret ?? randomBytes(16).toString('base64url');
  const ttlMs = options.invoiceTtlMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const storeName = options.storeName ?? 'Scanline test store';
  const webhookId = randomBytes(8).toString('base64url');
  let webhookUrl = options.webhookUrl ?? null;
  let down = false;
  const sockets = new Set<Socket>();

  const fakeStore: FakeStore = { storeId, webhookId, webhookSecret, now };
  const webhookRequest = (invoiceId: string, type: FakeWebhookType, opts: WebhookOptions = {}) =>
    signedWebhook(fakeStore, invoiceId, fake.invoices.get(invoiceId), type, opts);

  const sendWebhook = async (invoiceId: string, type: FakeWebhookType, opts: WebhookOptions = {}) => {
    const request = webhookRequest(invoiceId, type, opts);
    if (options.post) return options.post(request);
    if (!webhookUrl) throw new Error('fake BTCPay: no webhook URL set');
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  };

  /** Posts BTCPay's webhooks for what happened, in order; the last answer's status. */
  const sendEvents = async (id: string, events: ReturnType<typeof receivePayment>) => {
    let answer: number | null = null;
    for (const event of events) answer = await sendWebhook(id, event.type, { fields: event.fields });
    return answer;
  };

  const changeStatus = async (
    invoiceId: string,
    type: FakeWebhookType,
    opts: StatusChangeOptions = {},
  ): Promise<number | null> => {
    const invoice = fake.invoices.get(invoiceId);
    if (!invoice) throw new Error(`fake BTCPay: no invoice ${invoiceId}`);
    if (type === 'InvoiceSettled' && invoice.status === 'Expired' && !opts.marked) {
      // BTCPay keeps a late payment Expired + PaidLate; only the operator's "Mark as settled" settles it.
      throw new Error('fake BTCPay: a real BTCPay never settles an expired invoice; use pay() (PaidLate)');
    }
    invoice.status = statusAfter(type, invoice.status);
    if (opts.paid !== undefined) invoice.paid = opts.paid;
    else if (invoice.status === 'Settled' && Number(invoice.paid) === 0) invoice.paid = invoice.amount;
    if (opts.marked) invoice.marked = true;
    if (opts.webhook === false) return null;
    return sendWebhook(invoiceId, type);
  };

  const fake: FakeBtcpay = {
    origin: '',
    storeId,
    apiKey,
    webhookSecret,
    invoices: new Map(),
    requests: 0,
    received: [],
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    invoiceOfOrder(orderId) {
      return [...fake.invoices.values()].find((i) => i.metadata.orderId === orderId);
    },
    settle: (id, opts) => changeStatus(id, 'InvoiceSettled', opts),
    expire: (id, opts) => changeStatus(id, 'InvoiceExpired', opts),
    invalidate: (id, opts) => changeStatus(id, 'InvoiceInvalid', opts),
    process: (id, opts) => changeStatus(id, 'InvoiceProcessing', opts),
    async pay(id, opts = {}) {
      const invoice = fake.invoices.get(id);
      if (!invoice) throw new Error(`fake BTCPay: no invoice ${id}`);
      const events = receivePayment(invoice, opts.amount ?? dueOn(invoice));
      return opts.webhook === false ? null : sendEvents(id, events);
    },
    webhookRequest,
    sendWebhook,
    takeDown() {
      down = true;
    },
    bringUp() {
      down = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const greenfieldError = (res: ServerResponse, status: number, code: string, message: string) =>
    json(res, status, { code, message });

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    fake.requests += 1;
    fake.received.push({
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      authorization: req.headers.authorization,
    });
    if (down) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('BTCPay Server is down');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;

    // The buyer's checkout page.
    const checkout = /^\/i\/([^/]+)(\/pay)?$/.exec(path);
    if (checkout) {
      const invoice = fake.invoices.get(decodeURIComponent(checkout[1]!));
      if (!invoice) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Invoice not found');
        return;
      }
      if (req.method === 'GET' && !checkout[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(invoice));
        return;
      }
      if (req.method === 'POST' && checkout[2]) {
        // ?confirm=0 leaves a New invoice's payment confirming (Processing).
        const events = payAtCheckout(invoice, url.searchParams.get('confirm') !== '0');
        // Like BTCPay, the webhooks go out on their own; awaited here so the buyer lands on the outcome.
        if (webhookUrl || options.post) await sendEvents(invoice.id, events).catch(() => null);
        res.writeHead(303, { location: invoice.redirectURL ?? '/' }).end();
        return;
      }
      res.writeHead(405).end();
      return;
    }

    const store = /^\/api\/v1\/stores\/([^/]+)(\/invoices(?:\/([^/]+)(\/payment-methods)?)?)?$/.exec(path);
    if (!store) {
      greenfieldError(res, 404, 'not-found', 'Not found');
      return;
    }
    if (req.headers.authorization !== `token ${apiKey}`) {
      greenfieldError(res, 401, 'unauthenticated', 'Authentication is required for accessing this endpoint');
      return;
    }
    if (decodeURIComponent(store[1]!) !== storeId) {
      greenfieldError(res, 404, 'store-not-found', 'The store was not found');
      return;
    }
    if (!store[2]) {
      if (req.method !== 'GET') return greenfieldError(res, 405, 'method-not-allowed', 'Method not allowed');
      json(res, 200, { id: storeId, name: storeName, defaultCurrency: 'USD' });
      return;
    }
    const invoiceId = store[3] ? decodeURIComponent(store[3]) : undefined;
    if (invoiceId === undefined && req.method === 'POST') {
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        greenfieldError(res, 400, 'invalid-json', 'The request body is not JSON');
        return;
      }
      const invoice = createInvoice(body, fakeStore, fake.origin, ttlMs);
      fake.invoices.set(invoice.id, invoice);
      json(res, 200, invoiceData(invoice, options.legacy));
      return;
    }
    if (invoiceId !== undefined && req.method === 'GET') {
      const invoice = fake.invoices.get(invoiceId);
      if (!invoice) {
        greenfieldError(res, 404, 'invoice-not-found', 'The invoice was not found');
        return;
      }
      json(res, 200, store[4] ? paymentMethodsData(invoice) : invoiceData(invoice, options.legacy));
      return;
    }
    greenfieldError(res, 405, 'method-not-allowed', 'Method not allowed');
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => {
      handle(req, res, raw).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
