import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIALECTS, useTestApp } from '../test/helper.ts';
import { connectTestClient, type TestClient } from '../test/socket-client.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin socket /ws`, () => {
    const t = useTestApp(dialect, { listen: true });
    const clients: WebSocket[] = [];
    // Registered after useTestApp's hooks, so it runs before the app closes (sequence.hooks 'stack' runs
    // afterEach hooks in reverse order).
    afterEach(() => {
      for (const ws of clients.splice(0)) ws.terminate();
    });

    /** Opens a socket (closed again after the test); rejects with the refusal status. */
    async function connect(cookie?: string): Promise<TestClient> {
      const client = await connectTestClient(t.socketUrl, cookie);
      clients.push(client.ws);
      return client;
    }

    it('refuses the upgrade with 401 when there is no session cookie', async () => {
      await expect(connect()).rejects.toThrow('refused with 401');
      await expect(connect('scanline_session=forged')).rejects.toThrow('refused with 401');
    });

    it('answers a plain GET /ws without a session with the JSON 401', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/ws' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Authentication required' });
    });

    it('limits upgrade attempts from one IP to 120 a minute', async () => {
      const attempt = () => t.app.inject({ method: 'GET', url: '/ws', remoteAddress: '10.9.9.9' });
      for (let i = 0; i < 120; i++) expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(429);
      const other = await t.app.inject({ method: 'GET', url: '/ws', remoteAddress: '10.9.9.10' });
      expect(other.statusCode).toBe(401);
    });

    it('refuses the admin upgrade from another page of the same host, or with no Origin at all', async () => {
      const cookie = await t.adminCookie();
      await expect(connectTestClient(t.socketUrl, cookie, { origin: 'http://evil.example' })).rejects.toThrow(
        'refused with 403',
      );
      const samePort = new URL(t.socketUrl).port;
      await expect(
        connectTestClient(t.socketUrl, cookie, { origin: `http://127.0.0.1:${Number(samePort) + 1}` }),
      ).rejects.toThrow('refused with 403');
      await expect(connectTestClient(t.socketUrl, cookie, { origin: null })).rejects.toThrow(
        'refused with 403',
      );
      const own = await connect(cookie);
      await own.next((f) => f.type === 'system_health');
    });

    it('closes the dashboards of a session the moment it logs out, not at the next sweep', async () => {
      const cookie = await t.adminCookie();
      const otherSession = await t.adminCookie();
      const [first, second, other] = await Promise.all([
        connect(cookie),
        connect(cookie),
        connect(otherSession),
      ]);
      await Promise.all([first, second, other].map((c) => c.next((f) => f.type === 'system_health')));
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      // Well inside the 30 s liveness sweep: the logout itself closed them.
      expect(await first.waitClosed(2000)).toEqual({ code: 4401, reason: 'Logged out' });
      expect(await second.waitClosed(2000)).toEqual({ code: 4401, reason: 'Logged out' });
      other.send({ type: 'heartbeat', payload: {} });
      await other.next((f) => f.type === 'heartbeat');
      expect(other.closed).toBeNull();
    });

    it('refuses a session that has logged out', async () => {
      const cookie = await t.adminCookie();
      const first = await connect(cookie);
      await first.next((f) => f.type === 'system_health');
      await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } });
      await expect(connect(cookie)).rejects.toThrow('refused with 401');
    });

    it('sends system_health at once on connect, counting the connected dashboards', async () => {
      const cookie = await t.adminCookie();
      const first = await connect(cookie);
      const health = await first.next((f) => f.type === 'system_health');
      expect(health.payload).toEqual({
        status: 'healthy',
        connectedClients: 1,
        healthScore: 100,
        networkHealth: 85,
        totalBots: 70,
        activeBots: 0,
        // No bot has reported yet: the fleet is down, not live.
        fleet: expect.objectContaining({ state: 'down', expectedBots: 0, heardBots: 0, lastHeardAt: null }),
      });
      expect(typeof health.id).toBe('string');
      expect(health.id.length).toBeGreaterThan(8);
      expect(new Date(health.timestamp).toISOString()).toBe(health.timestamp);

      const second = await connect(cookie);
      const secondHealth = await second.next((f) => f.type === 'system_health');
      expect(secondHealth.payload).toMatchObject({ connectedClients: 2 });
      // The first dashboard hears about the new count too.
      const update = await first.next(
        (f) =>
          f.type === 'system_health' && (f.payload as { connectedClients: number }).connectedClients === 2,
      );
      expect(update.id).not.toBe(health.id);

      second.ws.close(1000);
      await first.next(
        (f) =>
          f.type === 'system_health' && (f.payload as { connectedClients: number }).connectedClients === 1,
        { from: first.frames.indexOf(update) + 1 },
      );
    });

    it('answers a heartbeat with the server time', async () => {
      const client = await connect(await t.adminCookie());
      client.send({ type: 'heartbeat', payload: {}, id: 'hb-1', timestamp: Date.now() });
      const beat = await client.next((f) => f.type === 'heartbeat');
      expect(beat.payload).toEqual({ serverTime: t.ctx.now() });
    });

    it('answers a system_health request', async () => {
      const client = await connect(await t.adminCookie());
      await client.next((f) => f.type === 'system_health');
      const from = client.frames.length;
      client.send({ type: 'system_health', payload: {} });
      const health = await client.next((f) => f.type === 'system_health', { from });
      expect(health.payload).toMatchObject({ status: 'healthy', connectedClients: 1 });
    });

    it('answers a scanner_status request with the scanner list', async () => {
      const client = await connect(await t.adminCookie());
      client.send({ type: 'scanner_status', payload: {} });
      const status = await client.next((f) => f.type === 'scanner_status');
      // No bot has reported: an empty list and the spec's start value of network health.
      expect(status.payload).toMatchObject({
        scanners: [],
        networkStats: { totalBots: 0, networkHealth: 85 },
      });
    });

    it('answers bad JSON, an unknown type and a bad payload with error frames and stays open', async () => {
      const client = await connect(await t.adminCookie());
      client.send('{not json');
      expect((await client.next((f) => f.type === 'error')).payload).toEqual({ error: 'Invalid JSON' });

      let from = client.frames.length;
      client.send({ type: 'launch_missiles', payload: {}, id: 'm-1' });
      expect((await client.next((f) => f.type === 'error', { from })).payload).toEqual({
        error: 'Unknown message type: launch_missiles',
        requestId: 'm-1',
      });

      from = client.frames.length;
      client.send({ type: 'heartbeat', payload: 'not an object' });
      const badPayload = await client.next((f) => f.type === 'error', { from });
      expect((badPayload.payload as { error: string }).error).toMatch(/^Invalid heartbeat payload: /);

      from = client.frames.length;
      client.send({ payload: {} });
      const noType = await client.next((f) => f.type === 'error', { from });
      expect((noType.payload as { error: string }).error).toMatch(/^Invalid frame: type: /);

      from = client.frames.length;
      client.send({ type: 'heartbeat', payload: {} });
      await client.next((f) => f.type === 'heartbeat', { from });
      expect(client.closed).toBeNull();
      expect(client.ws.readyState).toBe(WebSocket.OPEN);
    });

    it('drops a flood beyond 50 messages a second with one error frame', async () => {
      const client = await connect(await t.adminCookie());
      await client.next((f) => f.type === 'system_health');
      for (let i = 0; i < 80; i++) client.send({ type: 'heartbeat', payload: {} });
      await client.next((f) => f.type === 'error');
      await sleep(200);
      expect(client.ofType('heartbeat')).toHaveLength(50);
      const errors = client.ofType('error');
      expect(errors).toHaveLength(1);
      expect((errors[0]!.payload as { error: string }).error).toMatch(/^Too many messages/);
      expect(client.ws.readyState).toBe(WebSocket.OPEN);
    });

    it('forwards messages published on the admin bus channel to every dashboard', async () => {
      const cookie = await t.adminCookie();
      const a = await connect(cookie);
      const b = await connect(cookie);
      // Whole payloads, as the server sends them: sockets check what they send in tests.
      const update = { message: 'Slots set to 40' };
      await t.ctx.bus.publish('admin', { type: 'system_config_update', payload: update });
      for (const client of [a, b]) {
        const frame = await client.next((f) => f.type === 'system_config_update');
        expect(frame.payload).toEqual(update);
        expect(typeof frame.id).toBe('string');
        expect(typeof frame.timestamp).toBe('string');
      }
    });

    it('delivers every event but coalesces a burst of replaceable state to the first and the latest', async () => {
      const client = await connect(await t.adminCookie());
      await client.next((f) => f.type === 'system_health');
      await sleep(150); // let the connect update's window close
      const from = client.frames.length;
      // system_health is replaceable state; system_config_update an event where every one counts.
      const health = (totalBots: number) => ({
        status: 'healthy',
        connectedClients: 1,
        healthScore: 100,
        networkHealth: 0,
        totalBots,
        activeBots: 0,
        fleet: null,
      });
      for (let i = 1; i <= 10; i++) {
        await t.ctx.bus.publish('admin', { type: 'system_health', payload: health(i) });
        await t.ctx.bus.publish('admin', {
          type: 'system_config_update',
          payload: { message: `update ${i}` },
        });
      }
      await client.next(
        (f) => f.type === 'system_health' && (f.payload as { totalBots: number }).totalBots === 10,
        { from },
      );
      await sleep(150);
      const later = client.frames.slice(from);
      expect(
        later
          .filter((f) => f.type === 'system_config_update')
          .map((f) => (f.payload as { message: string }).message),
      ).toEqual(Array.from({ length: 10 }, (_, i) => `update ${i + 1}`));
      expect(later.filter((f) => f.type === 'system_health').map((f) => f.payload)).toEqual([
        health(1),
        health(10),
      ]);
    });

    it('ignores bus messages that are not {type, payload}', async () => {
      const client = await connect(await t.adminCookie());
      await client.next((f) => f.type === 'system_health');
      await t.ctx.bus.publish('admin', 'garbage');
      await t.ctx.bus.publish('admin', { type: 'system_config_update', payload: { message: 'ok' } });
      const frame = await client.next((f) => f.type === 'system_config_update');
      expect(frame.payload).toEqual({ message: 'ok' });
    });

    it('closes open sockets with 1012 (service restart) when the app closes', async () => {
      const client = await connect(await t.adminCookie());
      await client.next((f) => f.type === 'system_health');
      await t.app.close();
      const closed = await client.waitClosed();
      // Anything but 1000 tells the browser to reconnect (to this instance once it is back, or another).
      expect(closed.code).toBe(1012);
    });
  });
}
