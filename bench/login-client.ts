/*
 * The login benchmark's client side (bench/login-flood.ts): one admin login over loopback from a
 * given local address, timed.
 */
import { type Agent, get, request } from 'node:http';

/** A page load from `localAddress` on `agent`: leaves its connection open, as a browser showing the login form has. */
export function openPage(port: number, localAddress: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, localAddress, agent, path: '/api/public/purchase-info' }, (res) => {
      res.resume();
      res.once('end', () => resolve());
    }).once('error', reject);
  });
}

/**
 * One login from `localAddress`, on `agent`'s kept-alive connection (a flooding address) or a new
 * one (the admin's browser); resolves with the status and the time taken (status 0: no answer).
 */
export function login(
  port: number,
  localAddress: string,
  adminSecret: string,
  agent: Agent | false = false,
): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify({ adminSecret });
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/api/admin/login',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          origin: `http://127.0.0.1:${port}`,
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}
