import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const serverPort = Number(process.env.PORT ?? 5000);

export default defineConfig({
  root: 'web',
  // precompress: .br and .gz copies of the text files, which the server sends as they are.
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./web', import.meta.url)) },
      // Every `from 'zod'` in the browser gets zod without JIT, which the CSP would report (web/lib/jitless-zod.ts).
      { find: /^zod$/, replacement: fileURLToPath(new URL('./web/lib/jitless-zod.ts', import.meta.url)) },
    ],
  },
  // 'hidden': maps are written (to read a reported stack on the server) but not linked from the
  // bundles, and the server never serves a .map (server/app.ts).
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: 'hidden' },
  server: {
    // `npm run dev:web`: Vite serves the web app and forwards API and socket traffic to `npm run dev:server`.
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
