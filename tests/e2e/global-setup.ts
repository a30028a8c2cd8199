import { existsSync } from 'node:fs';
import { findOrInstallChromium } from './chromium.ts';

/** Runs once before the browser tests: Chromium is there and the app is built. */
export default function setup(): void {
  process.env.CHROMIUM_PATH = findOrInstallChromium();
  if (!existsSync('dist/server/main.js') || !existsSync('dist/web/index.html')) {
    throw new Error('The app is not built: run `npm run build` first (`npm test` does it for you).');
  }
}
