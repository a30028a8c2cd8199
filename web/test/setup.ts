import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { preloadToaster } from '@/components/toaster.tsx';

// Radix Select captures the pointer and scrolls its options into view; jsdom does neither.
// (Files that run in plain node, without a DOM, have no Element at all.)
if (typeof Element !== 'undefined') {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
}

afterEach(() => cleanup());

// waitFor and findBy* return as soon as their condition holds; the 1 s default only decides how long a
// loaded machine (the API tests share its two cores) may take before a missing element counts as a failure.
configure({ asyncUtilTimeout: 5000 });

// The toasts' code is fetched with the first toast in the app (components/toaster.tsx); here it is in
// from the start, so a test sees a toast as soon as it is raised.
beforeAll(() => preloadToaster());
