import { describe, expect, it } from 'vitest';
import { DIALECTS, type TestAppSuite, useTestApp } from '../../test/helper.ts';
import { ensureAdminSecret } from './auth.service.ts';
import { insertAdminSecretHash } from './auth.store.ts';
import { hashSecret } from './secret.ts';

/** The first-start path: no ADMIN_SECRET, so the app generates one and stores only its scrypt hash. */
async function useGeneratedSecret(t: TestAppSuite): Promise<string> {
  t.ctx.config.ADMIN_SECRET = undefined;
  await t.ctx.db.deleteFrom('admin_credentials').execute();
  const { generated } = await ensureAdminSecret(t.ctx);
  if (!generated) throw new Error('no secret was generated');
  return generated;
}

/** A secret generated before check values existed: only its scrypt hash is stored, so every guess is hashed. */
async function useSecretWithoutCheck(t: TestAppSuite): Promise<string> {
  const secret = 'generated-before-check-values';
  t.ctx.config.ADMIN_SECRET = undefined;
  await t.ctx.db.deleteFrom('admin_credentials').execute();
  await insertAdminSecretHash(t.ctx.db, await hashSecret(secret), t.clock.now());
  return secret;
}

const loginAs = (t: TestAppSuite) => (adminSecret: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { adminSecret }, remoteAddress: ip });

async function failedLoginRows(t: TestAppSuite, ip: string): Promise<number> {
  await t.app.pendingWrites.flush();
  const rows = await t.ctx.db
    .selectFrom('audit_logs')
    .select('id')
    .where('event_type', '=', 'admin_login')
    .where('success', '=', 0)
    .where('ip_address', '=', ip)
    .execute();
  return rows.length;
}

const statusCounts = (codes: number[]) =>
  codes.reduce<Record<number, number>>((counts, code) => {
    counts[code] = (counts[code] ?? 0) + 1;
    return counts;
  }, {});

for (const dialect of DIALECTS) {
  describe(`${dialect}: the failed-login lockout under concurrent guesses`, () => {
    const t = useTestApp(dialect);

    it('checks exactly 5 of 10 concurrent wrong guesses from one address and refuses the rest with 429', async () => {
      const login = loginAs(t);
      const answers = await Promise.all(Array.from({ length: 10 }, () => login('wrong', '10.3.0.1')));
      expect(statusCounts(answers.map((res) => res.statusCode))).toEqual({ 401: 5, 429: 5 });
      for (const res of answers.filter((r) => r.statusCode === 429)) {
        expect(res.json()).toEqual({ error: 'Too many failed login attempts. Try again in 15 minutes.' });
      }
      expect(await failedLoginRows(t, '10.3.0.1')).toBe(5);
    });

    it('checks exactly 5 of 10 concurrent wrong guesses against a generated (scrypt) secret', async () => {
      const secret = await useGeneratedSecret(t);
      const login = loginAs(t);
      const answers = await Promise.all(Array.from({ length: 10 }, () => login('wrong', '10.3.0.2')));
      expect(statusCounts(answers.map((res) => res.statusCode))).toEqual({ 401: 5, 429: 5 });
      expect(await failedLoginRows(t, '10.3.0.2')).toBe(5);
      expect((await login(secret, '10.3.0.2')).statusCode).toBe(429);
      expect((await login(secret, '10.3.0.3')).statusCode).toBe(200);
    });
  });

  describe(`${dialect}: the admin gets in during a wrong-login flood`, () => {
    const t = useTestApp(dialect);

    it('answers the generated secret 200 every time while 2,000 addresses send wrong secrets', async () => {
      const secret = await useGeneratedSecret(t);
      const login = loginAs(t);
      const FLOOD = 2000;
      const RIGHT_TRIES = 15;
      const flood: Promise<number>[] = [];
      const right: Promise<number>[] = [];
      for (let i = 0; i < FLOOD; i++) {
        flood.push(login(`wrong-${i}`, `10.${4 + (i >> 8)}.${i & 255}.1`).then((res) => res.statusCode));
        // The admin's tries, spread through the flood, each from an address with no failures (one
        // address would meet RATE_LIMIT_LOGIN).
        if (i % Math.floor(FLOOD / RIGHT_TRIES) === 0 && right.length < RIGHT_TRIES) {
          right.push(login(secret, `192.0.2.${right.length + 1}`).then((res) => res.statusCode));
        }
      }
      const [floodCodes, rightCodes] = await Promise.all([Promise.all(flood), Promise.all(right)]);
      expect(rightCodes).toEqual(Array(RIGHT_TRIES).fill(200));
      expect(statusCounts(floodCodes)).toEqual({ 401: FLOOD });
    });
  });

  describe(`${dialect}: the scrypt queue, sized down (one check at a time, 4 waiting)`, () => {
    const t = useTestApp(dialect, { env: { LOGIN_HASH_CONCURRENCY: '1', LOGIN_QUEUE_SIZE: '4' } });

    it('checks the right secret from a clean address before addresses that have failed, even when the queue is full', async () => {
      const secret = await useSecretWithoutCheck(t);
      const login = loginAs(t);
      const attackers = Array.from({ length: 30 }, (_, i) => `10.20.0.${i + 1}`);
      const flood = () => attackers.map((ip) => login('wrong', ip).then((res) => res.statusCode));
      // The first wave: 5 are checked, the rest refused at once, and every one is counted.
      const firstWave = await Promise.all(flood());
      expect(statusCounts(firstWave)).toEqual({ 401: 5, 429: 25 });
      // The second wave comes from addresses that have failed; the admin's tries are checked first.
      const secondWave = flood();
      const right = [0, 1, 2].map((i) => login(secret, `192.0.2.${i + 1}`).then((res) => res.statusCode));
      secondWave.push(...flood());
      expect(await Promise.all(right)).toEqual([200, 200, 200]);
      const floodCodes = await Promise.all(secondWave);
      expect(floodCodes.every((code) => code === 401 || code === 429)).toBe(true);
    });

    it('refuses an address more checks than its share with 429, counted toward its lockout', async () => {
      const secret = await useSecretWithoutCheck(t);
      const login = loginAs(t);
      const answers = await Promise.all([1, 2, 3].map(() => login('wrong', '10.21.0.1')));
      expect(answers.map((res) => res.statusCode).sort()).toEqual([401, 429, 429]);
      expect(answers.find((res) => res.statusCode === 429)?.json()).toEqual({
        error: 'Too many sign-ins are being checked: try again in a moment',
      });
      expect(await failedLoginRows(t, '10.21.0.1')).toBe(3);
      for (let i = 0; i < 2; i++) expect((await login('wrong', '10.21.0.1')).statusCode).toBe(401);
      expect((await login(secret, '10.21.0.1')).json()).toEqual({
        error: 'Too many failed login attempts. Try again in 15 minutes.',
      });
    });

    it('stores the check value at the first right sign-in, after which wrong guesses skip the queue', async () => {
      const secret = await useSecretWithoutCheck(t);
      const login = loginAs(t);
      expect((await login(secret, '192.0.2.1')).statusCode).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          login('wrong', `10.22.0.${i + 1}`).then((res) => res.statusCode),
        ),
      );
      expect(statusCounts(answers)).toEqual({ 401: 30 });
    });
  });
}
