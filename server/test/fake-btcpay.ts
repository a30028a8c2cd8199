import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A BTCPay Server stand-in on loopback for the payments tests and the browser test: the Greenfield
 * calls the app makes (create and get an invoice, get the store), each checking
 * `Authorization: token {apiKey}` (401) and the store id (404); a checkout page per invoice
 * (`GET /i/{id}`) whose "Pay invoice" button settles it, sends the signed InvoiceSettled webhook and
 * sends the buyer back to the invoice's redirectURL; signed webhooks on demand (redeliveries, a bad
 * signature); and a switch to take it down (503).
 */

export type FakeInvoiceStatus = 'New' | 'Processing' | 'Expired' | 'Invalid' | 'Settled';
export type FakeWebhookType =
  | 'InvoiceCreated'
  | 'InvoiceReceivedPayment'
  | 'InvoiceProcessing'
  | 'InvoiceSettled'
  | 'InvoiceExpired'
  | 'InvoiceInvalid';

export interface FakeInvoice {
  id: string;
  storeId: string;
  amount: string;
  currency: string;
  status: FakeInvoiceStatus;
  metadata: Record<string, unknown>;
  /** checkout.redirectURL as the app sent it. */
  redirectURL: string | null;
  checkoutLink: string;
  /** Unix seconds, as Greenfield gives them. */
  createdTime: number;
  expirationTime: number;
}

export interface WebhookOptions {
  deliveryId?: string;
  isRedelivery?: boolean;
  originalDeliveryId?: string;
  /** Signs with another secret: the app must refuse it. */
  badSignature?: boolean;
}

export interface StatusChangeOptions {
  /** Also send the matching webhook (default true); false plays a webhook that never arrived. */
  webhook?: boolean;
}

/** A webhook as BTCPay posts it: the exact body text and its headers (BTCPay-Sig among them). */
export interface FakeWebhookRequest {
  body: string;
  headers: Record<string, string>;
  deliveryId: string;
}

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
  /** The webhook BTCPay would send, without sending it (for app.inject). */
  webhookRequest(invoiceId: string, type: FakeWebhookType, options?: WebhookOptions): FakeWebhookRequest;
  /** Posts a signed webhook to the webhook URL; the answer's status. */
  sendWebhook(invoiceId: string, type: FakeWebhookType, options?: WebhookOptions): Promise<number>;
  /** Every request answers 503 until bringUp(). */
  takeDown(): void;
  bringUp(): void;
  /** Greenfield and checkout requests received, answered or not. */
  requests: number;
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
}

const SETTLED_BY: Record<FakeWebhookType, FakeInvoiceStatus | null> = {
  InvoiceCreated: null,
  InvoiceReceivedPayment: null,
  InvoiceProcessing: 'Processing',
  InvoiceSettled: 'Settled',
  InvoiceExpired: 'Expired',
  InvoiceInvalid: 'Invalid',
};

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
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

  const webhookRequest = (
    invoiceId: string,
    type: FakeWebhookType,
    opts: WebhookOptions = {},
  ): FakeWebhookRequest => {
    const invoice = fake.invoices.get(invoiceId);
    const deliveryId = opts.deliveryId ?? randomBytes(12).toString('base64url');
    const body = JSON.stringify({
      deliveryId,
      webhookId,
      originalDeliveryId: opts.originalDeliveryId ?? deliveryId,
      isRedelivery: opts.isRedelivery ?? false,
      type,
      timestamp: Math.floor(now() / 1000),
      storeId: invoice?.storeId ?? storeId,
      invoiceId,
      metadata: invoice?.metadata ?? {},
      ...(type === 'InvoiceSettled' ? { manuallyMarked: false, overPaid: false } : {}),
    });
    const key = opts.badSignature ? `${webhookSecret}-wrong` : webhookSecret;
    const signature = createHmac('sha256', key).update(body).digest('hex');
    return {
      body,
      deliveryId,
      headers: { 'content-type': 'application/json', 'btcpay-sig': `sha256=${signature}` },
    };
  };

  const sendWebhook = async (invoiceId: string, type: FakeWebhookType, opts: WebhookOptions = {}) => {
    if (!webhookUrl) throw new Error('fake BTCPay: no webhook URL set');
    const request = webhookRequest(invoiceId, type, opts);
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  };

  const changeStatus = async (
    invoiceId: string,
    type: FakeWebhookType,
    opts: StatusChangeOptions = {},
  ): Promise<number | null> => {
    const invoice = fake.invoices.get(invoiceId);
    if (!invoice) throw new Error(`fake BTCPay: no invoice ${invoiceId}`);
    invoice.status = SETTLED_BY[type] ?? invoice.status;
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

  const invoiceData = (invoice: FakeInvoice) => ({
    id: invoice.id,
    storeId: invoice.storeId,
    amount: invoice.amount,
    currency: invoice.currency,
    type: 'Standard',
    checkoutLink: invoice.checkoutLink,
    status: invoice.status,
    additionalStatus: 'None',
    createdTime: invoice.createdTime,
    expirationTime: invoice.expirationTime,
    monitoringExpiration: invoice.expirationTime + 3600,
    metadata: invoice.metadata,
    checkout: { redirectURL: invoice.redirectURL, redirectAutomatically: true },
  });

  const checkoutPage = (invoice: FakeInvoice) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Invoice ${escapeHtml(invoice.id)}</title></head>
<body><main>
<h1>Pay ${escapeHtml(invoice.amount)} ${escapeHtml(invoice.currency)}</h1>
<p>Invoice <span data-testid="invoice-id">${escapeHtml(invoice.id)}</span>: <span data-testid="invoice-status">${invoice.status}</span></p>
<form method="post" action="/i/${encodeURIComponent(invoice.id)}/pay">
<button type="submit">Pay invoice</button>
</form>
</main></body></html>`;

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    fake.requests += 1;
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
        invoice.status = 'Settled';
        // Like BTCPay, the webhook goes out on its own; awaited here so the buyer lands on a paid order.
        if (webhookUrl) await sendWebhook(invoice.id, 'InvoiceSettled').catch(() => null);
        res.writeHead(303, { location: invoice.redirectURL ?? '/' }).end();
        return;
      }
      res.writeHead(405).end();
      return;
    }

    const store = /^\/api\/v1\/stores\/([^/]+)(\/invoices(?:\/([^/]+))?)?$/.exec(path);
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
      const id = randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22);
      const created = now();
      const invoice: FakeInvoice = {
        id,
        storeId,
        amount: String(body.amount),
        currency: String(body.currency ?? 'USD'),
        status: 'New',
        metadata: body.metadata ?? {},
        redirectURL: body.checkout?.redirectURL ?? null,
        checkoutLink: `${fake.origin}/i/${id}`,
        createdTime: Math.floor(created / 1000),
        expirationTime: Math.floor((created + ttlMs) / 1000),
      };
      fake.invoices.set(id, invoice);
      json(res, 200, invoiceData(invoice));
      return;
    }
    if (invoiceId !== undefined && req.method === 'GET') {
      const invoice = fake.invoices.get(invoiceId);
      if (!invoice) {
        greenfieldError(res, 404, 'invoice-not-found', 'The invoice was not found');
        return;
      }
      json(res, 200, invoiceData(invoice));
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

/*
 * Run on its own for trying payments locally:
 *   npx tsx server/test/fake-btcpay.ts [port] [webhookUrl]
 * prints the four BTCPAY_* values to start the app with.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 0);
  const fake = await startFakeBtcpay({
    port,
    apiKey: 'fake-btcpay-api-key',
    webhookSecret: 'fake-btcpay-webhook-secret',
    webhookUrl: process.argv[3] ?? 'http://127.0.0.1:5000/api/payments/btcpay/webhook',
  });
  console.log(
    `BTCPAY_URL=${fake.origin} BTCPAY_STORE_ID=${fake.storeId} BTCPAY_API_KEY=${fake.apiKey} BTCPAY_WEBHOOK_SECRET=${fake.webhookSecret}`,
  );
}
