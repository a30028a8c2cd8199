import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_SETTINGS_TEXTS } from '../../../common/payments.ts';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';

// No test reaches the network: BTCPay's host names resolve as they would (a private one included).
vi.mock('node:dns/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns/promises')>();
  const addresses: Record<string, string> = {
    'btcpay.example.com': '93.184.215.20',
    'other-btcpay.example.com': '93.184.215.21',
    'btcpay.internal.example.com': '10.0.0.8',
    localhost: '127.0.0.1',
  };
  const lookup = async (host: string) => {
    const address = addresses[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
  return { ...actual, lookup, default: { ...actual, lookup } };
});

const API_KEY = 'greenfield-key-0123456789abcdef';
const WEBHOOK_SECRET = 'whsec-9f8e7d6c5b4a3210';
const STORE_ID = 'AbCdStore123';
const HOUR_MS = 60 * 60 * 1000;

/** A BTCPay Server stand-in on loopback answering GET /api/v1/stores/{id}, recording what it was sent. */
async function startFakeStoreApi() {
  const requests: IncomingMessage[] = [];
  let answer: { status: number; body: unknown } = {
    status: 200,
    body: { id: STORE_ID, name: 'Scanline Shop' },
  };
  const server: Server = createServer((request, response) => {
    requests.push(request);
    const authorized = request.headers.authorization === `token ${API_KEY}`;
    if (request.url !== `/api/v1/stores/${STORE_ID}`) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"store-not-found"}');
    } else if (!authorized) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthenticated"}');
    } else {
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    answer(status: number, body: unknown) {
      answer = { status, body };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An address on loopback nothing listens on. */
async function closedPortOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function callsOf(t: TestAppSuite) {
  return (method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: t.cookie }, ...(payload ? { payload } : {}) });
}

let orderSeq = 0;
/** An order row as the public order call and the webhook leave it. */
function orderRow(t: TestAppSuite, over: Record<string, unknown> = {}) {
  orderSeq += 1;
  const now = t.clock.now();
  return {
    id: `order${String(orderSeq).padStart(11, '0')}`,
    secret_hash: 'a'.repeat(64),
    status: 'pending' as const,
    invoice_id: `INV${orderSeq}`,
    checkout_link: `https://btcpay.example.com/i/INV${orderSeq}`,
    amount: '40',
    currency: 'USD',
    key_type: 'PREMIUM' as const,
    validity_hours: 24,
    max_hardware_bindings: 1,
    redemption_key_id: null,
    redemption_code: null,
    client_ip: '203.0.113.9',
    created_at: now,
    expires_at: now + 15 * 60 * 1000,
    paid_at: null,
    ended_at: null,
    checked_at: null,
    ...over,
  };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: payment settings (admin)`, () => {
    const t = useTestApp(dialect, { signIn: true });
    const call = callsOf(t);

    it('refuses every payments admin call without an admin session', async () => {
      for (const [method, url] of [
        ['GET', '/api/admin/payments/settings'],
        ['PUT', '/api/admin/payments/settings'],
        ['GET', '/api/admin/payments/connection'],
        ['GET', '/api/admin/orders'],
      ] as const) {
        const res = await t.app.inject({ method, url, ...(method === 'PUT' ? { payload: {} } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('starts unset with the default delivery, not connected', async () => {
      const res = await call('GET', '/api/admin/payments/settings');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        settings: {
          btcpayUrl: null,
          storeId: null,
          apiKey: null,
          webhookSecret: null,
          fromEnvironment: { btcpayUrl: false, storeId: false, apiKey: false, webhookSecret: false },
          connected: false,
          delivery: { keyType: 'PREMIUM', validityHours: 24, maxHardwareBindings: 1 },
        },
      });
    });

    it('saves the settings, shows the key and the secret masked, keeps absent fields and clears null ones', async () => {
      const saved = await call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com/',
        storeId: STORE_ID,
        apiKey: API_KEY,
        webhookSecret: WEBHOOK_SECRET,
        delivery: { keyType: 'VIP', validityHours: 72, maxHardwareBindings: 3 },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.body).not.toContain(API_KEY);
      expect(saved.body).not.toContain(WEBHOOK_SECRET);
      expect(saved.json().settings).toEqual({
        btcpayUrl: 'https://btcpay.example.com',
        storeId: STORE_ID,
        apiKey: '••••cdef',
        webhookSecret: '••••3210',
        fromEnvironment: { btcpayUrl: false, storeId: false, apiKey: false, webhookSecret: false },
        connected: true,
        delivery: { keyType: 'VIP', validityHours: 72, maxHardwareBindings: 3 },
      });

      const read = await call('GET', '/api/admin/payments/settings');
      expect(read.json()).toEqual(saved.json());

      // Absent keeps, null clears.
      const cleared = await call('PUT', '/api/admin/payments/settings', { webhookSecret: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().settings).toMatchObject({
        btcpayUrl: 'https://btcpay.example.com',
        storeId: STORE_ID,
        apiKey: '••••cdef',
        webhookSecret: null,
        connected: false,
        delivery: { keyType: 'VIP', validityHours: 72, maxHardwareBindings: 3 },
      });
    });

    it('audits which settings changed, never the key or the secret', async () => {
      await call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com',
        storeId: STORE_ID,
        apiKey: API_KEY,
        webhookSecret: WEBHOOK_SECRET,
      });
      await call('PUT', '/api/admin/payments/settings', {
        apiKey: null,
        delivery: { keyType: 'PREMIUM', validityHours: 48, maxHardwareBindings: 1 },
      });
      const rows = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'payment_settings_updated')
        .orderBy('id')
        .execute();
      expect(rows.map((row) => JSON.parse(row.details))).toEqual([
        {
          changed: ['btcpayUrl', 'storeId', 'apiKey', 'webhookSecret'],
          cleared: [],
          connected: true,
        },
        { changed: ['apiKey', 'delivery.validityHours'], cleared: ['apiKey'], connected: false },
      ]);
      const everything = JSON.stringify(await t.ctx.db.selectFrom('audit_logs').selectAll().execute());
      expect(everything).not.toContain(API_KEY);
      expect(everything).not.toContain(WEBHOOK_SECRET);
    });

    it('refuses bad values with a 400 that says what is wrong, changing nothing', async () => {
      const cases: Array<[object, string]> = [
        [{ delivery: { keyType: 'PREMIUM', validityHours: 0, maxHardwareBindings: 1 } }, 'validity'],
        [{ delivery: { keyType: 'PREMIUM', validityHours: 721, maxHardwareBindings: 1 } }, 'validity'],
        [{ delivery: { keyType: 'PREMIUM', validityHours: 24, maxHardwareBindings: 11 } }, 'binding'],
        [{ delivery: { keyType: 'GOLD', validityHours: 24, maxHardwareBindings: 1 } }, 'keyType'],
        [{ btcpayUrl: 'btcpay.example.com' }, 'btcpayUrl must be an http(s) URL'],
        [{ btcpayUrl: 'ftp://btcpay.example.com' }, 'btcpayUrl must be an http(s) URL'],
        [{ storeId: '   ' }, 'storeId cannot be empty'],
      ];
      for (const [payload, message] of cases) {
        const res = await call('PUT', '/api/admin/payments/settings', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.toLowerCase()).toContain(message.toLowerCase());
      }
      const read = await call('GET', '/api/admin/payments/settings');
      expect(read.json().settings).toMatchObject({
        btcpayUrl: null,
        storeId: null,
        delivery: { keyType: 'PREMIUM', validityHours: 24, maxHardwareBindings: 1 },
      });
    });

    it('reports not configured until all four settings are set', async () => {
      await call('PUT', '/api/admin/payments/settings', { btcpayUrl: 'https://btcpay.example.com' });
      const res = await call('GET', '/api/admin/payments/connection');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ configured: false, reachable: false, storeName: null });
      expect(res.json().error).toContain('not connected');
    });
  });

  describe(`${dialect}: the BTCPay URL follows the notification destinations' rules`, () => {
    const t = useTestApp(dialect, { signIn: true });
    const call = callsOf(t);

    it('refuses loopback, private and non-public addresses, and plain http, offline and sending nothing', async () => {
      const listener = await startFakeStoreApi();
      try {
        for (const btcpayUrl of [
          listener.origin,
          `https://127.0.0.1:${new URL(listener.origin).port}`,
          'https://[::127.0.0.1]',
          'https://[::ffff:127.0.0.1]',
          'https://[2002:7f00:1::1]',
          'https://[64:ff9b:1::a00:1]',
          'https://[fec0::1]',
          'https://169.254.169.254',
          'https://btcpay.internal.example.com',
          'https://localhost',
        ]) {
          const res = await call('PUT', '/api/admin/payments/settings', { btcpayUrl, apiKey: API_KEY });
          expect(res.statusCode, btcpayUrl).toBe(400);
          expect(res.json().error, btcpayUrl).toMatch(
            /^btcpayUrl: The URL (must use https|resolves to a private)/,
          );
        }
        expect(listener.requests).toHaveLength(0);
        const unknown = await call('PUT', '/api/admin/payments/settings', {
          btcpayUrl: 'https://nowhere.example.com',
        });
        expect(unknown.json().error).toBe("btcpayUrl: The URL's host nowhere.example.com does not resolve");
        expect((await call('GET', '/api/admin/payments/settings')).json().settings.btcpayUrl).toBeNull();
      } finally {
        await listener.close();
      }
    });

    it('asks for the key again when only the URL changes, and not when the URL stays or no key is saved', async () => {
      const first = await call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com',
      });
      expect(first.statusCode, first.body).toBe(200);
      // No key saved yet: nothing could go astray.
      expect(
        (await call('PUT', '/api/admin/payments/settings', { btcpayUrl: 'https://other-btcpay.example.com' }))
          .statusCode,
      ).toBe(200);
      await call('PUT', '/api/admin/payments/settings', { apiKey: API_KEY, storeId: STORE_ID });
      const same = await call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://other-btcpay.example.com/',
        storeId: 'AnotherStore',
      });
      expect(same.statusCode, same.body).toBe(200);
      const moved = await call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com',
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().error).toContain('apiKey is required when btcpayUrl changes');
      // Cleared and set again later: still the key first.
      expect((await call('PUT', '/api/admin/payments/settings', { btcpayUrl: null })).statusCode).toBe(200);
      expect(
        (await call('PUT', '/api/admin/payments/settings', { btcpayUrl: 'https://btcpay.example.com' }))
          .statusCode,
      ).toBe(400);
      // Moving and clearing the key at once sends it nowhere either.
      const cleared = await call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com',
        apiKey: null,
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().settings).toMatchObject({
        btcpayUrl: 'https://btcpay.example.com',
        apiKey: null,
      });
    });
  });

  describe(`${dialect}: a BTCPay URL entered here with the API key from the environment`, () => {
    const t = useTestApp(dialect, { signIn: true, env: { BTCPAY_API_KEY: API_KEY } });

    it('is refused: the key the environment sets goes only to the URL the environment sets', async () => {
      const res = await callsOf(t)('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(PAYMENT_SETTINGS_TEXTS.apiKeyFromEnvironment);
    });
  });

  describe(`${dialect}: payment settings from the environment`, () => {
    const t = useTestApp(dialect, {
      signIn: true,
      env: { BTCPAY_URL: 'https://pay.example.org/', BTCPAY_API_KEY: API_KEY },
    });
    const call = callsOf(t);

    it('shows environment fields as such, masked, and refuses to change them', async () => {
      const read = await call('GET', '/api/admin/payments/settings');
      expect(read.body).not.toContain(API_KEY);
      expect(read.json().settings).toMatchObject({
        btcpayUrl: 'https://pay.example.org',
        apiKey: '••••cdef',
        fromEnvironment: { btcpayUrl: true, storeId: false, apiKey: true, webhookSecret: false },
        connected: false,
      });

      const refused = await call('PUT', '/api/admin/payments/settings', { apiKey: 'another-key-123456' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toContain('BTCPAY_API_KEY');

      const cleared = await call('PUT', '/api/admin/payments/settings', { btcpayUrl: null });
      expect(cleared.statusCode).toBe(400);
      expect(cleared.json().error).toContain('BTCPAY_URL');

      // The other two are the operator's to set here, and then the connection is complete.
      const saved = await call('PUT', '/api/admin/payments/settings', {
        storeId: STORE_ID,
        webhookSecret: WEBHOOK_SECRET,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().settings).toMatchObject({ storeId: STORE_ID, connected: true });
    });
  });

  describe(`${dialect}: payment connection check`, () => {
    // The fake BTCPay listens on loopback, which only NOTIFY_ALLOW_PRIVATE lets a URL reach.
    const t = useTestApp(dialect, { signIn: true, env: { NOTIFY_ALLOW_PRIVATE: 'true' } });
    const call = callsOf(t);
    let fake: Awaited<ReturnType<typeof startFakeStoreApi>>;
    beforeEach(async () => {
      fake = await startFakeStoreApi();
    });
    afterEach(async () => {
      await fake.close();
    });
    const connect = (over: Record<string, unknown> = {}) =>
      call('PUT', '/api/admin/payments/settings', {
        btcpayUrl: fake.origin,
        storeId: STORE_ID,
        apiKey: API_KEY,
        webhookSecret: WEBHOOK_SECRET,
        ...over,
      });
    const connection = async () => {
      const res = await call('GET', '/api/admin/payments/connection');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(API_KEY);
      return res.json();
    };

    it('names the store when BTCPay Server answers for it, sending the key as a token', async () => {
      await connect();
      expect(await connection()).toEqual({
        configured: true,
        reachable: true,
        storeName: 'Scanline Shop',
        error: null,
        checkedAt: '2026-11-22T12:00:00.000Z',
      });
      expect(fake.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
        ['GET', `/api/v1/stores/${STORE_ID}`, `token ${API_KEY}`],
      ]);
    });

    it('says the key was refused on a 401', async () => {
      await connect({ apiKey: 'a-wrong-key-0000' });
      const answer = await connection();
      expect(answer).toMatchObject({ configured: true, reachable: false, storeName: null });
      expect(answer.error).toContain('refused the API key (401)');
    });

    it('says the store is unknown on a 404', async () => {
      await connect({ storeId: 'NoSuchStore' });
      const answer = await connection();
      expect(answer).toMatchObject({ configured: true, reachable: false });
      expect(answer.error).toContain('no store NoSuchStore');
    });

    it('sends the saved API key to no other server: a new URL needs the key again', async () => {
      await connect();
      const other = await startFakeStoreApi();
      try {
        const moved = await call('PUT', '/api/admin/payments/settings', { btcpayUrl: other.origin });
        expect(moved.statusCode).toBe(400);
        expect(moved.json().error).toBe(PAYMENT_SETTINGS_TEXTS.apiKeyRequired);
        expect((await call('GET', '/api/admin/payments/settings')).json().settings.btcpayUrl).toBe(
          fake.origin,
        );
        await connection();
        expect(other.requests).toHaveLength(0);
        expect(fake.requests.map((r) => r.headers.authorization)).toEqual([`token ${API_KEY}`]);

        // With the key entered again, the new server gets that key.
        const entered = await call('PUT', '/api/admin/payments/settings', {
          btcpayUrl: other.origin,
          apiKey: API_KEY,
        });
        expect(entered.statusCode, entered.body).toBe(200);
        expect((await connection()).reachable).toBe(true);
        expect(other.requests.map((r) => r.headers.authorization)).toEqual([`token ${API_KEY}`]);
      } finally {
        await other.close();
      }
    });

    it('says BTCPay Server cannot be reached when nothing listens', async () => {
      const origin = await closedPortOrigin();
      await connect({ btcpayUrl: origin });
      const answer = await connection();
      expect(answer).toMatchObject({ configured: true, reachable: false, storeName: null });
      expect(answer.error).toMatch(/^BTCPay Server did not answer while reading the store: /);
    });
  });

  describe(`${dialect}: orders (admin)`, () => {
    const t = useTestApp(dialect, { signIn: true });
    const call = callsOf(t);
    const list = async (query = '') => {
      const res = await call('GET', `/api/admin/orders${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        orders: Array<Record<string, any>>;
        count: number;
        timestamp: string;
      };
    };

    it('answers an empty list on a new database', async () => {
      expect(await list()).toEqual({ orders: [], count: 0, timestamp: '2026-11-22T12:00:00.000Z' });
    });

    it('lists orders newest first with the code masked and their deliveries newest first', async () => {
      const start = t.clock.now();
      const paid = orderRow(t, {
        status: 'paid',
        created_at: start - 2 * HOUR_MS,
        paid_at: start - HOUR_MS,
        redemption_key_id: 7,
        redemption_code: 'ABCD-EFGH-IJKL-MNOP',
      });
      const pending = orderRow(t, { created_at: start - HOUR_MS });
      const expired = orderRow(t, { status: 'expired', created_at: start - 3 * HOUR_MS, ended_at: start });
      await t.ctx.db.insertInto('orders').values([paid, pending, expired]).execute();
      await t.ctx.db
        .insertInto('payment_webhook_deliveries')
        .values([
          {
            delivery_id: 'D1',
            original_delivery_id: null,
            is_redelivery: 0,
            event_type: 'InvoiceSettled',
            invoice_id: paid.invoice_id,
            order_id: paid.id,
            outcome: 'paid',
            received_at: start - HOUR_MS,
          },
          {
            delivery_id: 'D2',
            original_delivery_id: 'D1',
            is_redelivery: 1,
            event_type: 'InvoiceSettled',
            invoice_id: paid.invoice_id,
            order_id: paid.id,
            outcome: 'already_paid',
            received_at: start - HOUR_MS + 60_000,
          },
          {
            delivery_id: 'D3',
            original_delivery_id: null,
            is_redelivery: 0,
            event_type: 'InvoiceExpired',
            invoice_id: expired.invoice_id,
            order_id: expired.id,
            outcome: 'expired',
            received_at: start,
          },
          {
            delivery_id: 'D4',
            original_delivery_id: null,
            is_redelivery: 0,
            event_type: 'InvoiceSettled',
            invoice_id: 'UNKNOWN',
            order_id: null,
            outcome: 'unknown_invoice',
            received_at: start,
          },
        ])
        .execute();

      const answer = await list();
      expect(answer.count).toBe(3);
      expect(answer.orders.map((o) => o.id)).toEqual([pending.id, paid.id, expired.id]);
      expect(JSON.stringify(answer)).not.toContain('ABCD-EFGH-IJKL-MNOP');
      expect(answer.orders[1]).toEqual({
        id: paid.id,
        status: 'paid',
        invoiceId: paid.invoice_id,
        amount: '40',
        currency: 'USD',
        keyType: 'PREMIUM',
        validityHours: 24,
        maxHardwareBindings: 1,
        redemptionCode: expect.stringMatching(/^ABCD.+MNOP$/),
        redemptionKeyId: 7,
        createdAt: new Date(start - 2 * HOUR_MS).toISOString(),
        expiresAt: new Date(start + 15 * 60 * 1000).toISOString(),
        paidAt: new Date(start - HOUR_MS).toISOString(),
        endedAt: null,
        received: null,
        paymentState: null,
        slotShortfall: false,
        email: null,
        mail: null,
        deliveries: [
          {
            id: expect.any(Number),
            deliveryId: 'D2',
            originalDeliveryId: 'D1',
            isRedelivery: 1,
            type: 'InvoiceSettled',
            outcome: 'already_paid',
            receivedAt: new Date(start - HOUR_MS + 60_000).toISOString(),
          },
          {
            id: expect.any(Number),
            deliveryId: 'D1',
            originalDeliveryId: null,
            isRedelivery: 0,
            type: 'InvoiceSettled',
            outcome: 'paid',
            receivedAt: new Date(start - HOUR_MS).toISOString(),
          },
        ],
      });
      expect(answer.orders[0]?.deliveries).toEqual([]);
      expect(answer.orders[2]?.deliveries.map((d: { deliveryId: string }) => d.deliveryId)).toEqual(['D3']);
    });

    it('filters by status and searches order id, invoice id and code whatever the case', async () => {
      const paid = orderRow(t, {
        status: 'paid',
        invoice_id: 'BtcPayInv77',
        paid_at: t.clock.now(),
        redemption_key_id: 1,
        redemption_code: 'WXYZ-1234-5678-QRST',
      });
      const pending = orderRow(t, { id: 'Pending_Order_01', invoice_id: 'OtherInv%1' });
      const invalid = orderRow(t, { status: 'invalid', invoice_id: null });
      await t.ctx.db.insertInto('orders').values([paid, pending, invalid]).execute();
      const ids = async (query: string) => (await list(query)).orders.map((o) => o.id);

      expect(await ids('?status=paid')).toEqual([paid.id]);
      expect(await ids('?status=invalid')).toEqual([invalid.id]);
      expect(await ids('?status=expired')).toEqual([]);
      expect(await ids('?search=btcpayinv')).toEqual([paid.id]);
      expect(await ids('?search=pending_order')).toEqual([pending.id]);
      expect(await ids('?search=1234-5678')).toEqual([paid.id]);
      expect(await ids('?search=wxyz')).toEqual([paid.id]);
      // LIKE's wildcards are taken as the characters they are.
      expect(await ids('?search=inv%25')).toEqual([pending.id]);
      expect(await ids('?search=_order_')).toEqual([pending.id]);
      expect(await ids('?search=btcpay&status=pending')).toEqual([]);

      const limited = await list('?limit=2');
      expect(limited.orders).toHaveLength(2);
      expect(limited.count).toBe(3);
    });

    it('refuses a bad status or limit with a 400', async () => {
      for (const [query, message] of [
        [
          '?status=settled',
          'status must be all, pending, paid, expired, invalid, underpaid, mismatch or refunded',
        ],
        ['?limit=0', 'limit must be between 1 and 1000'],
        ['?limit=many', 'limit must be a number'],
      ]) {
        const res = await call('GET', `/api/admin/orders${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error).toContain(message);
      }
    });
  });

  describe(`${dialect}: dashboard sales`, () => {
    const t = useTestApp(dialect, { signIn: true });

    it('counts paid orders and their sum today (since UTC midnight) and over the last 7 UTC days', async () => {
      // The clock reads 2026-11-22 12:00 UTC.
      const at = (iso: string) => Date.parse(iso);
      const paid = (iso: string, amount = '40') =>
        orderRow(t, { status: 'paid', amount, created_at: at(iso), paid_at: at(iso) });
      await t.ctx.db
        .insertInto('orders')
        .values([
          paid('2026-11-22T11:59:00Z'),
          paid('2026-11-22T00:00:00Z', '40.50'),
          paid('2026-11-21T23:59:00Z'),
          paid('2026-11-16T00:00:00Z'), // the first of the 7 days
          paid('2026-11-15T23:59:00Z'), // the day before: not this week
          orderRow(t, { status: 'pending', created_at: at('2026-11-22T10:00:00Z') }),
          orderRow(t, {
            status: 'expired',
            created_at: at('2026-11-22T09:00:00Z'),
            ended_at: at('2026-11-22T10:00:00Z'),
          }),
        ])
        .execute();

      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie: t.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().sales).toEqual({
        today: { orders: 2, amount: 80.5 },
        week: { orders: 4, amount: 160.5 },
        currency: 'USD',
        connected: false,
      });

      await callsOf(t)('PUT', '/api/admin/payments/settings', {
        btcpayUrl: 'https://btcpay.example.com',
        storeId: STORE_ID,
        apiKey: API_KEY,
        webhookSecret: WEBHOOK_SECRET,
      });
      const connected = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie: t.cookie },
      });
      expect(connected.json().sales.connected).toBe(true);
    });
  });
}
