/**
 * zod for the browser: the same API, with JIT compilation off. zod probes `new Function('')` when it
 * builds its first object schema, which the CSP (script-src 'self', no 'unsafe-eval') reports as a
 * violation even though zod catches the error. The browser build resolves every `import … from
 * 'zod'` here (vite.config.ts), so this runs before any schema is built, in whichever chunk needs
 * zod, and pages that use no zod do not load it.
 */
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
