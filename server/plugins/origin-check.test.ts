import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../common/public-defaults.ts';
import { loadConfig } from '../config.ts';
import { insertTestScriptKey } from '../test/fixtures.ts';
import { buildTestApp, DIALECTS, OWN_ORIGIN, TEST_ADMIN_SECRET, useTestApp } from '../test/helper.ts';
import { multipartBody } from '../test/multipart.ts';

/** A page on another port of the same host: same site, so the SameSite=Strict cookie goes along. */
const SAME_SITE_PAGE = 'http://localhost:8080';
const ORIGIN_REFUSED = `Origin not allowed: ${SAME_SITE_PAGE} (admin changes are accepted only from this app's own pages)`;
const ORIGIN_MISSING =
  "Origin header missing: admin changes are accepted only from this app's own pages, which always send it";

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin calls from other pages (CSRF)`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const pageHeadline = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/public/scripts-page-config' })).json().config
        .headerTitle;
    const editPage = () =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/scripts-page-config',
        headers: { cookie: t.cookie },
        payload: { ...DEFAULT_SCRIPTS_PAGE_CONFIG, headerTitle: 'Edited' },
      });
    const createLicenseKey = async (): Promise<number> => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license-keys',
        headers: { cookie: t.cookie },
        payload: { keyType: 'PREMIUM' },
      });
      expect(res.statusCode).toBe(201);
      return res.json().licenseKey.id;
    };
    const licenseKeyStatus = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/license-keys', headers: { cookie: t.cookie } }))
        .json()
        .licenseKeys.find((k: { id: number }) => k.id === id).status;
    const hostedFiles = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/hosted-scripts/list',
          headers: { cookie: t.cookie },
        })
      )
        .json()
        .files.map((f: { filename: string }) => f.filename);

    it('refuses what the attack page did: a text/plain reset, a multipart upload and a form-post revoke', async () => {
      expect((await editPage()).statusCode).toBe(200);
      const id = await createLicenseKey();

      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts-page-config/reset',
        headers: { cookie: t.cookie, origin: SAME_SITE_PAGE, 'content-type': 'text/plain' },
        payload: '{}',
      });
      expect(reset.statusCode).toBe(403);
      expect(reset.json()).toEqual({ error: ORIGIN_REFUSED });
      expect(await pageHeadline()).toBe('Edited');

      const { payload, headers } = multipartBody([
        { name: 'isPublic', value: 'true' },
        { name: 'file', filename: 'planted.lua', content: 'print("planted")' },
      ]);
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/upload',
        headers: { ...headers, cookie: t.cookie, origin: SAME_SITE_PAGE },
        payload,
      });
      expect(upload.statusCode).toBe(403);
      expect(await hostedFiles()).not.toContain('planted.lua');

      const revoke = await t.app.inject({
        method: 'POST',
        url: `/api/admin/license-keys/${id}/revoke`,
        headers: {
          cookie: t.cookie,
          origin: SAME_SITE_PAGE,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'x=1',
      });
      expect(revoke.statusCode).toBe(403);
      expect(await licenseKeyStatus(id)).toBe('ACTIVE');
    });

    it('refuses every state-changing admin route from another page, whatever it is, before it runs', async () => {
      const changing = t.app.routeTable.filter(
        (r) => r.url.startsWith('/api/admin/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
      );
      expect(changing.length).toBeGreaterThan(15);
      for (const route of changing) {
        const res = await t.app.inject({
          method: route.method as 'POST',
          url: route.url.replace(/:[A-Za-z_]+/g, '1'),
          headers: { cookie: t.cookie, origin: SAME_SITE_PAGE },
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json(), `${route.method} ${route.url}`).toEqual({ error: ORIGIN_REFUSED });
      }
    });

    it('refuses login and logout from another page, so neither can be forced on the admin', async () => {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: { origin: SAME_SITE_PAGE },
        payload: { adminSecret: TEST_ADMIN_SECRET },
      });
      expect(login.statusCode).toBe(403);
      expect(login.cookies).toEqual([]);
      const logout = await t.app.inject({
        method: 'POST',
        url: '/api/admin/logout',
        headers: { cookie: t.cookie, origin: SAME_SITE_PAGE },
      });
      expect(logout.statusCode).toBe(403);
      const stillIn = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie: t.cookie },
      });
      expect(stillIn.statusCode).toBe(200);
    });

    it('refuses a state-changing admin call with neither Origin nor Referer, naming what is missing', async () => {
      const res = await t.injectBare({
        method: 'PUT',
        url: '/api/admin/scripts-page-config',
        headers: { cookie: t.cookie },
        payload: { ...DEFAULT_SCRIPTS_PAGE_CONFIG, headerTitle: 'Edited' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: ORIGIN_MISSING });
      expect(await pageHeadline()).toBe(DEFAULT_SCRIPTS_PAGE_CONFIG.headerTitle);
    });

    it("refuses the opaque origin 'null' (sandboxed frames, no-referrer form posts)", async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts-page-config/reset',
        headers: { cookie: t.cookie, origin: 'null' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: "Origin not allowed: null (admin changes are accepted only from this app's own pages)",
      });
    });

    it('falls back to the Referer when there is no Origin', async () => {
      const own = await t.injectBare({
        method: 'PUT',
        url: '/api/admin/scripts-page-config',
        headers: { cookie: t.cookie, referer: `${OWN_ORIGIN}/admin/scripts-page-editor?tab=1` },
        payload: { ...DEFAULT_SCRIPTS_PAGE_CONFIG, headerTitle: 'Edited' },
      });
      expect(own.statusCode).toBe(200);
      const other = await t.injectBare({
        method: 'POST',
        url: '/api/admin/scripts-page-config/reset',
        headers: { cookie: t.cookie, referer: `${SAME_SITE_PAGE}/attack.html` },
      });
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ error: ORIGIN_REFUSED });
      expect(await pageHeadline()).toBe('Edited');
    });

    it('accepts the same origin however the default port is written', async () => {
      for (const origin of [OWN_ORIGIN, 'http://localhost:80', 'HTTP://LOCALHOST']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts-page-config/reset',
          headers: { cookie: t.cookie, origin },
        });
        expect(res.statusCode, origin).toBe(200);
      }
      const otherScheme = await t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts-page-config/reset',
        headers: { cookie: t.cookie, origin: 'https://localhost' },
      });
      expect(otherScheme.statusCode).toBe(403);
    });

    it('leaves reads alone: a GET from another page is answered (the browser keeps it from that page)', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/system-configuration',
        headers: { cookie: t.cookie, origin: SAME_SITE_PAGE },
      });
      expect(res.statusCode).toBe(200);
    });

    it('does not check the executor-facing calls, which never come from a browser page', async () => {
      const redeem = await t.injectBare({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code: 'SCANLINE-AAAA-BBBB-CCCC-DDDD', hwid: 'device-1' },
      });
      expect(redeem.statusCode).toBe(404);
      expect(redeem.json().error).not.toMatch(/origin/i);
      const { scriptKey } = await insertTestScriptKey(t);
      const challenge = await t.injectBare({
        method: 'POST',
        url: '/api/script/challenge',
        headers: { origin: 'http://evil.example' },
        payload: { key: scriptKey, hwid: 'device-1' },
      });
      expect(challenge.statusCode).toBe(200);
    });

    describe('body types', () => {
      it('answers 415 to a JSON route sent text/plain or a form, even from the app itself', async () => {
        for (const contentType of [
          'text/plain',
          'application/x-www-form-urlencoded',
          'text/plain; charset=utf-8',
        ]) {
          const res = await t.app.inject({
            method: 'PUT',
            url: '/api/admin/scripts-page-config',
            headers: { cookie: t.cookie, 'content-type': contentType },
            payload: JSON.stringify({ ...DEFAULT_SCRIPTS_PAGE_CONFIG, headerTitle: 'Edited' }),
          });
          expect(res.statusCode, contentType).toBe(415);
          expect(res.json(), contentType).toEqual({
            error: `Content-Type must be application/json, not ${contentType.split(';')[0]}`,
          });
        }
        expect(await pageHeadline()).toBe(DEFAULT_SCRIPTS_PAGE_CONFIG.headerTitle);
      });

      it('takes multipart only on the upload route', async () => {
        const id = await createLicenseKey();
        const { payload, headers } = multipartBody([{ name: 'reason', value: 'x' }]);
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/admin/license-keys/${id}/revoke`,
          headers: { ...headers, cookie: t.cookie },
          payload,
        });
        expect(res.statusCode).toBe(415);
        expect(res.json()).toEqual({
          error: 'Content-Type must be application/json, not multipart/form-data',
        });
        expect(await licenseKeyStatus(id)).toBe('ACTIVE');
      });

      it('answers 415 on the executor-facing JSON calls too', async () => {
        const res = await t.injectBare({
          method: 'POST',
          url: '/api/script/redeem',
          headers: { 'content-type': 'text/plain' },
          payload: JSON.stringify({ code: 'SCANLINE-AAAA-BBBB-CCCC-DDDD', hwid: 'device-1' }),
        });
        expect(res.statusCode).toBe(415);
      });

      it('still takes a body-less call (logout, revoke) without any Content-Type', async () => {
        const id = await createLicenseKey();
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/admin/license-keys/${id}/revoke`,
          headers: { cookie: t.cookie },
        });
        expect(res.statusCode).toBe(200);
        expect(await licenseKeyStatus(id)).toBe('REVOKED');
      });
    });
  });

  describe(`${dialect}: the origins a proxy adds`, () => {
    it('accepts the origins listed in ALLOWED_ORIGINS', async () => {
      const t = await buildTestApp(dialect, {
        ALLOWED_ORIGINS: 'https://admin.example.com, http://10.0.0.7:8080/',
      });
      try {
        const cookie = await t.adminCookie();
        for (const origin of ['https://admin.example.com', 'http://10.0.0.7:8080', OWN_ORIGIN]) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/admin/scripts-page-config/reset',
            headers: { cookie, origin },
          });
          expect(res.statusCode, origin).toBe(200);
        }
        const other = await t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts-page-config/reset',
          headers: { cookie, origin: 'https://other.example.com' },
        });
        expect(other.statusCode).toBe(403);
      } finally {
        await t.close();
      }
    });

    it("takes the app's own origin from X-Forwarded-Proto and -Host only from a trusted proxy", async () => {
      const t = await buildTestApp(dialect, { TRUST_PROXY: '10.0.0.5' });
      const reset = (remoteAddress: string, cookie: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/scripts-page-config/reset',
          remoteAddress,
          headers: {
            cookie,
            origin: 'https://scanline.example.com',
            'x-forwarded-proto': 'https',
            'x-forwarded-host': 'scanline.example.com',
          },
        });
      try {
        const cookie = await t.adminCookie();
        expect((await reset('10.0.0.5', cookie)).statusCode).toBe(200);
        expect((await reset('10.0.0.6', cookie)).statusCode).toBe(403);
      } finally {
        await t.close();
      }
    });
  });
}

describe('ALLOWED_ORIGINS', () => {
  it('is a comma-separated list of origins, empty by default', () => {
    expect(loadConfig({}).ALLOWED_ORIGINS).toEqual([]);
    expect(
      loadConfig({ ALLOWED_ORIGINS: ' https://a.example , HTTP://B.example:8080/ ,' }).ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'http://b.example:8080']);
  });

  it('refuses an entry that is not a bare http(s) origin, naming it', () => {
    for (const bad of ['a.example', 'https://a.example/admin', 'ftp://a.example', '*']) {
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad }), bad).toThrow(
        `ALLOWED_ORIGINS: ${bad} is not an origin like https://admin.example.com`,
      );
    }
  });
});
