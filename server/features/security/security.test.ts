import { describe, expect, it } from 'vitest';
import type { AuditLog, AuditLogListResponse } from '../../../common/security.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { type AuditEntry, insertAuditLog } from './security.store.ts';

const HOUR_MS = 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`${dialect}: security audit log`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const get = (query = '') =>
      t.app.inject({
        method: 'GET',
        url: `/api/admin/security/audit-logs${query}`,
        headers: { cookie: t.cookie },
      });
    const getLogs = async (query = ''): Promise<AuditLogListResponse> => {
      const res = await get(query);
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    /** An event `ageMs` before now. */
    const record = (entry: Partial<AuditEntry>, ageMs = 0) =>
      insertAuditLog(
        t.ctx.db,
        { eventType: 'binding_attempt', success: true, ...entry },
        t.clock.now() - ageMs,
      );
    // Signing in wrote an admin_login row; the tests count from a log without it.
    const clearLog = () => t.ctx.db.deleteFrom('audit_logs').execute();

    it('answers exactly the fields the screen reads (the response schema strips the rest)', async () => {
      await record({ eventType: 'binding_attempt' });
      const body = await getLogs();
      expect(Object.keys(body).sort()).toEqual(['count', 'last24h', 'logs', 'timestamp', 'total']);
      expect(Object.keys(body.logs[0]!).sort()).toEqual([
        'details',
        'eventType',
        'hardwareId',
        'id',
        'ipAddress',
        'licenseKey',
        'success',
        'timestamp',
      ]);
    });

    it('answers an event with every field the table shows', async () => {
      await clearLog();
      await record({
        eventType: 'hmac_verification',
        success: false,
        licenseKey: 'SK-abc',
        ipAddress: '10.0.0.7',
        hardwareId: 'hw-1',
        details: { reason: 'bad signature', attempt: 2 },
      });
      const body = await getLogs();
      expect(body).toEqual({
        logs: [
          {
            id: expect.any(Number),
            eventType: 'hmac_verification',
            success: 0,
            licenseKey: 'SK-abc',
            ipAddress: '10.0.0.7',
            hardwareId: 'hw-1',
            timestamp: new Date(t.clock.now()).toISOString(),
            details: { reason: 'bad signature', attempt: 2 },
          },
        ],
        count: 1,
        total: 1,
        last24h: 1,
        timestamp: new Date(t.clock.now()).toISOString(),
      });
    });

    it('includes events the hot paths have only queued so far', async () => {
      await clearLog();
      t.app.pendingWrites.audit(
        { eventType: 'rate_limit_hit', success: false, ipAddress: '10.0.0.9' },
        t.clock.now(),
      );
      const body = await getLogs();
      expect(body.logs.map((l) => [l.eventType, l.ipAddress])).toEqual([['rate_limit_hit', '10.0.0.9']]);
      expect(body.last24h).toBe(1);
    });

    it('covers the last 24 hours only', async () => {
      await clearLog();
      await record({ hardwareId: 'hw-old' }, 24 * HOUR_MS + 1);
      await record({ hardwareId: 'hw-edge' }, 24 * HOUR_MS);
      await record({ hardwareId: 'hw-recent' }, 23 * HOUR_MS);
      const body = await getLogs();
      expect(body.logs.map((l) => l.hardwareId)).toEqual(['hw-recent', 'hw-edge']);
      expect(body).toMatchObject({ count: 2, total: 2, last24h: 2 });

      t.clock.advance(HOUR_MS);
      expect((await getLogs()).logs.map((l) => l.hardwareId)).toEqual(['hw-recent']);
    });

    it('lists newest first, and events of the same moment by the order they were written', async () => {
      await clearLog();
      await record({ hardwareId: 'a' }, 2000);
      await record({ hardwareId: 'b' }, 1000);
      await record({ hardwareId: 'c' }, 1000);
      await record({ hardwareId: 'd' }, 3000);
      expect((await getLogs()).logs.map((l) => l.hardwareId)).toEqual(['c', 'b', 'a', 'd']);
    });

    it('filters by event type, counting the matches and still every event of the day', async () => {
      await clearLog();
      await record({ eventType: 'challenge_issued' });
      await record({ eventType: 'rate_limit_hit', success: false });
      await record({ eventType: 'rate_limit_hit', success: false }, 1000);
      await record({ eventType: 'rate_limit_hit', success: false }, 25 * HOUR_MS);
      const body = await getLogs('?eventType=rate_limit_hit');
      expect(body.logs.map((l) => l.eventType)).toEqual(['rate_limit_hit', 'rate_limit_hit']);
      expect(body).toMatchObject({ count: 2, total: 2, last24h: 3 });
      expect(await getLogs('?eventType=transaction_conflict')).toMatchObject({
        logs: [],
        count: 0,
        total: 0,
        last24h: 3,
      });
    });

    it('pages with limit and offset, the total counting every match', async () => {
      await clearLog();
      for (let i = 0; i < 7; i++) await record({ hardwareId: `hw-${i}` }, (7 - i) * 1000);
      const first = await getLogs('?limit=3&offset=0');
      expect(first.logs.map((l) => l.hardwareId)).toEqual(['hw-6', 'hw-5', 'hw-4']);
      expect(first).toMatchObject({ count: 3, total: 7, last24h: 7 });
      const last = await getLogs('?limit=3&offset=6');
      expect(last.logs.map((l) => l.hardwareId)).toEqual(['hw-0']);
      expect(last.count).toBe(1);
      expect((await getLogs('?limit=3&offset=9')).logs).toEqual([]);
    });

    it('answers 100 events by default', async () => {
      await clearLog();
      const rows = Array.from({ length: 101 }, (_, i) => ({
        event_type: 'binding_attempt',
        success: 1,
        timestamp: t.clock.now() - i,
        details: '{}',
      }));
      await t.ctx.db.insertInto('audit_logs').values(rows).execute();
      const body = await getLogs();
      expect(body).toMatchObject({ count: 100, total: 101 });
    });

    it('shows stored details that are not a JSON object as none', async () => {
      await clearLog();
      for (const details of ['not json', '[1,2]', 'null']) {
        await t.ctx.db
          .insertInto('audit_logs')
          .values({ event_type: 'binding_attempt', success: 1, timestamp: t.clock.now(), details })
          .execute();
      }
      const logs: AuditLog[] = (await getLogs()).logs;
      expect(logs.map((l) => l.details)).toEqual([{}, {}, {}]);
    });

    it.each([
      ['?limit=0', 'querystring limit: limit must be between 1 and 500'],
      ['?limit=501', 'querystring limit: limit must be between 1 and 500'],
      ['?limit=abc', 'querystring limit: limit must be a number'],
      ['?limit=2.5', 'querystring limit: limit must be a whole number'],
      ['?offset=-1', 'querystring offset: offset must be 0 or more'],
      [
        '?eventType=DROP%20TABLE',
        'querystring eventType: eventType must be lower-case letters and underscores',
      ],
    ])('refuses %s, naming the field', async (query, error) => {
      const res = await get(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(error);
    });

    it('refuses a caller without a session', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/security/audit-logs' });
      expect(res.statusCode).toBe(401);
    });
  });
}
