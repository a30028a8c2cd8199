import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { prerender } from './build/prerender.ts';
import { publicPageAt } from './common/web-routes.ts';

// The public pages' build (`npm run build:web` runs it after vite.config.ts, into the same directory):
// web/public.html with web/public-main.tsx, prerendered to HTML (build/prerender.ts) that hydrates.
// The same React components, run by Preact: react-dom alone is 59.6 KB of Brotli, the whole budget of a
// phone's first visit (60 KB); Preact's compat layer is under 5 KB. The console keeps React.

const web = fileURLToPath(new URL('./web', import.meta.url));

/** Where React's modules are found in this build: in Preact's compat layer. */
const shared: UserConfig = {
  root: 'web',
  resolve: {
    alias: [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
      { find: '@', replacement: web },
      // As in the console's build: zod without JIT, should a public page ever parse with it (web/lib/jitless-zod.ts).
      { find: /^zod$/, replacement: fileURLToPath(new URL('./web/lib/jitless-zod.ts', import.meta.url)) },
    ],
  },
};

const serverPort = Number(process.env.PORT ?? 5000);

/** `npm run dev:public`: the public pages' paths get the template, which renders the page from the address. */
function servePublicTemplate(): Plugin {
  return {
    name: 'scanline:serve-public-template',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (publicPageAt((request.url ?? '').split('?')[0] ?? '') !== null) request.url = '/public.html';
        next();
      });
    },
  };
}

export default defineConfig({
  ...shared,
  server: { proxy: { '/api': `http://127.0.0.1:${serverPort}` } },
  plugins: [
    servePublicTemplate(),
    tailwindcss(),
    prerender({
      template: 'public.html',
      entry: fileURLToPath(new URL('./web/public-prerender.tsx', import.meta.url)),
      ssrConfig: shared,
    }),
  ],
  build: {
    outDir: '../dist/web',
    // The console's build (vite.config.ts) is already there.
    emptyOutDir: false,
    sourcemap: 'hidden',
    rollupOptions: {
      input: fileURLToPath(new URL('./web/public.html', import.meta.url)),
      // "use client" marks server-component boundaries, which a browser bundle has none of (the console's
      // build hears nothing of it: @vitejs/plugin-react drops the directives).
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
