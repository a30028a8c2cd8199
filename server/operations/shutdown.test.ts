import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTestScriptKey } from '../test/fixtures.ts';
import { buildTestApp, type TestApp } from '../test/helper.ts';
import { connectTestClient } from '../test/socket-client.ts';
import { shutDown } from './shutdown.ts';

/*
 * The graceful stop inside one process (the whole process, signal to exit code, is
 * tests/operations/graceful-shutdown.test.ts): what a client in the middle of something sees.
 */
describe('sqlite: the graceful shutdown', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    // shutDown closed the app, the bus and the database already.
    t = undefined;
  });

  it('answers a long poll in flight, closes the admin socket with 1012, and ends with 0', async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { scriptKey } = await insertTestScriptKey(t);
    // A premium script waiting for finds: up to 25 s by design, more than the shutdown may take.
    const poll = fetch(`${base}/api/script/feed?since=now&wait=25&key=${scriptKey}&hwid=device-1`);
    const dashboard = await connectTestClient(`${base.replace('http', 'ws')}/ws`, await t.adminCookie());
    await dashboard.next((f) => f.type === 'system_health');
    // The poll is in the server's hands once its device is bound to the key (it then waits).
    const bound = () => t?.ctx.db.selectFrom('hardware_bindings').select('id').executeTakeFirst();
    while (!(await bound())) await new Promise((r) => setTimeout(r, 20));

    const code = await shutDown(t.app, t.ctx, { signal: 'SIGTERM', timeoutMs: 5000 });
    const answer = await poll;
    expect({ code, poll: answer.status, socket: (await dashboard.waitClosed()).code }).toEqual({
      code: 0,
      poll: 200,
      socket: 1012,
    });
  });
});
