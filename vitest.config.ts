import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const alias = { '@': fileURLToPath(new URL('./web', import.meta.url)) };

/** The scale-out tests need a real PostgreSQL and Redis; without both they are not part of the run. */
const scaleOutTests = [
  'server/realtime/multi-instance.test.ts',
  'server/realtime/multi-instance-limits.test.ts',
  'server/realtime/multi-instance-fleet.test.ts',
  'server/realtime/redis-outage.test.ts',
];
const hasScaleOutServices = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
/** nginx in front of two instances needs both too. */
const scaleOutOperationsTests = ['tests/operations/nginx.test.ts'];
/** The shared rate-limit store's tests need a real Redis. */
const redisTests = [
  'server/features/security/redis-rate-limit-store.test.ts',
  'server/features/security/shared-rate-limits.test.ts',
  'server/realtime/redis-prefix.test.ts',
];

/**
 * Files that replace a module with `vi.mock`, or fake the timers an app's sweeps run on: the api
 * project shares its modules between files (isolate: false, for speed), so these run isolated.
 */
const isolatedApiTests = [
  'server/features/redemption/redemption.test.ts',
  'server/features/notifications/notifications.test.ts',
  'server/features/security/audit-retention.test.ts',
  'server/features/payments/payments-admin.test.ts',
  'server/operations/activity-summary.test.ts',
  'server/features/server-pool/claim-errors.test.ts',
];

const apiProject = {
  environment: 'node' as const,
  include: ['server/**/*.test.ts'],
  testTimeout: 20_000,
  hookTimeout: 30_000,
};
const apiExcludes = [
  ...configDefaults.exclude,
  ...(hasScaleOutServices ? [] : scaleOutTests),
  ...(process.env.TEST_REDIS_URL ? [] : redisTests),
];

/**
 * Eight projects (`npm test` runs them in tiers, tests/run-all.mjs):
 * - unit: pure code in common/ and server/ helpers, the simulator, the benchmarks' arithmetic (node)
 * - web:  React components with Testing Library (jsdom)
 * - api:  the Fastify app through app.inject and real sockets, on SQLite and (with TEST_DATABASE_URL)
 *   PostgreSQL; files share one module graph per worker (each test still gets its own app and database)
 * - api-isolated: the api files that mock a module or fake timers, each in a fresh module graph
 * - e2e:  Playwright driving Chromium against the built app on a real port
 * - reliability: fast-check fuzz of every route and socket frame, kill -9 under load, concurrent pool
 *   claims (tests/reliability), on SQLite and (with TEST_DATABASE_URL) PostgreSQL; one file at a time
 * - client: the shipped Lua scripts in LuaJIT through an executor stand-in (tests/client), against the
 *   built server and the bot simulator
 * - operations: the server as an operator runs it (tests/operations): real processes, SIGTERM under
 *   simulator load, two instances on PostgreSQL and Redis, nginx in front, promtool on /metrics
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['common/**/*.test.ts', 'bots/**/*.test.ts', 'tests/*.test.ts', 'bench/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.{ts,tsx}'],
          setupFiles: ['web/test/setup.ts'],
          // Generous for a machine busy with the API tests too; a passing test takes what it takes.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          ...apiProject,
          name: 'api',
          isolate: false,
          exclude: [...apiExcludes, ...isolatedApiTests],
        },
      },
      {
        extends: true,
        test: { ...apiProject, name: 'api-isolated', include: isolatedApiTests, exclude: apiExcludes },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          environment: 'node',
          include: ['tests/reliability/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'node',
          include: ['tests/client/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 150_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'operations',
          environment: 'node',
          include: ['tests/operations/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(hasScaleOutServices ? [] : scaleOutOperationsTests)],
          testTimeout: 120_000,
          hookTimeout: 150_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
