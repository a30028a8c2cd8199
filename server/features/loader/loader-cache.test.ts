import { describe, expect, it } from 'vitest';
import { LoaderCache } from './loader-cache.ts';

/** A read the test finishes when it wants, to put an invalidation in the middle of it. */
function deferredRead<V>() {
  let resolve!: (value: V | undefined) => void;
  let reject!: (error: Error) => void;
  let calls = 0;
  const promise = new Promise<V | undefined>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    read: () => {
      calls += 1;
      return promise;
    },
    resolve,
    reject,
    calls: () => calls,
  };
}

describe('the loader cache', () => {
  it('keeps what a read found and serves it without reading again', async () => {
    const cache = new LoaderCache<string>();
    expect(await cache.fill('k', async () => 'v1')).toBe('v1');
    expect(cache.get('k')).toBe('v1');
  });

  it('never keeps what a read did not find, so a key created later is seen', async () => {
    const cache = new LoaderCache<string>();
    expect(await cache.fill('k', async () => undefined)).toBeUndefined();
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.fill('k', async () => 'created')).toBe('created');
  });

  it('does not keep a read that started before an invalidation (it may hold the old row)', async () => {
    const cache = new LoaderCache<string>();
    const stale = deferredRead<string>();
    const filling = cache.fill('k', stale.read);
    cache.invalidate('k');
    stale.resolve('old row');
    // The caller that asked before the change gets what it read; nobody after it does.
    expect(await filling).toBe('old row');
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.fill('k', async () => 'new row')).toBe('new row');
    expect(cache.get('k')).toBe('new row');
  });

  it('drops an entry when it is invalidated', async () => {
    const cache = new LoaderCache<string>();
    await cache.fill('a', async () => 'A');
    await cache.fill('b', async () => 'B');
    cache.invalidate('a');
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, 'B']);
    cache.clear();
    expect(cache.get('b')).toBeUndefined();
  });

  it('shares one read between misses of the same entry, but not across an invalidation', async () => {
    const cache = new LoaderCache<string>();
    const first = deferredRead<string>();
    const a = cache.fill('k', first.read);
    const b = cache.fill('k', first.read);
    expect(first.calls()).toBe(1);
    cache.invalidate('k');
    const second = deferredRead<string>();
    const c = cache.fill('k', second.read);
    expect(second.calls()).toBe(1);
    first.resolve('old');
    second.resolve('new');
    expect(await Promise.all([a, b, c])).toEqual(['old', 'old', 'new']);
    expect(cache.get('k')).toBe('new');
  });

  it('passes a failed read on and reads again next time', async () => {
    const cache = new LoaderCache<string>();
    const failing = deferredRead<string>();
    const filling = cache.fill('k', failing.read);
    failing.reject(new Error('database down'));
    await expect(filling).rejects.toThrow('database down');
    expect(await cache.fill('k', async () => 'back')).toBe('back');
  });
});
