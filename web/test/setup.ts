import { cleanup } from '@testing-library/react';
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

// The toasts' code is fetched with the first toast in the app (components/toaster.tsx); here it is in
// from the start, so a test sees a toast as soon as it is raised.
beforeAll(() => preloadToaster());
