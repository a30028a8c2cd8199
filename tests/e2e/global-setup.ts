import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOrInstallChromium } from './chromium.ts';

/** Runs once before the browser tests: Chromium is there and the app is built. */
export default function setup(): void {
  process.env.CHROMIUM_PATH = findOrInstallChromium();
  const dist = process.env.E2E_DIST ?? 'dist';
  if (!existsSync(join(dist, 'server/main.js')) || !existsSync(join(dist, 'web/index.html'))) {
    throw new Error('The app is not built: run `npm run build` first (`npm test` does it for you).');
  }
}
