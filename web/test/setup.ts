import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Radix Select captures the pointer and scrolls its options into view; jsdom does neither.
// (Files that run in plain node, without a DOM, have no Element at all.)
if (typeof Element !== 'undefined') {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
}

afterEach(() => cleanup());
