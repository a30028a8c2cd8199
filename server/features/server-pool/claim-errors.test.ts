import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conflict, notFound } from '../../http-error.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../../test/helper.ts';
import { addPoolServers, claimServer, NO_FLEET_LINK, type PoolFleetLink } from './server-pool.service.ts';

/*
 * A claim is the pool's busiest call, and an error object costs a stack trace: one that succeeds
 * builds none (issue 39 found a 404 built for every claim, thrown or not). Isolated in vitest.config.ts:
 * it replaces a module.
 */

// The refusals a claim can build, watched.
vi.mock('../../http-error.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../http-error.ts')>();
  return { ...actual, notFound: vi.fn(actual.notFound), conflict: vi.fn(actual.conflict) };
});

const PLACE = '109983668079237';
const ANY_BOT: PoolFleetLink = { ...NO_FLEET_LINK, holds: () => true };

for (const dialect of DIALECTS) {
  describe(`${dialect}: errors of a claim`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(dialect);
    });
    afterEach(async () => {
      await t?.close();
    });

    it('builds no error object for a claim that succeeds, and the 404 once the pool is empty', async () => {
      await addPoolServers(t.ctx, [
        { placeId: PLACE, jobId: 'job-1' },
        { placeId: PLACE, jobId: 'job-2' },
      ]);
      vi.mocked(notFound).mockClear();
      vi.mocked(conflict).mockClear();
      await claimServer(t.ctx, { ghostId: 'ghost-1' }, ANY_BOT);
      await claimServer(t.ctx, { ghostId: 'ghost-1', placeId: PLACE }, ANY_BOT);
      expect(notFound).not.toHaveBeenCalled();
      expect(conflict).not.toHaveBeenCalled();
      const empty = await claimServer(t.ctx, { ghostId: 'ghost-1' }, ANY_BOT).catch(
        (error: unknown) => error,
      );
      expect(empty).toMatchObject({ statusCode: 404 });
      expect(notFound).toHaveBeenCalledTimes(1);
    });
  });
}
