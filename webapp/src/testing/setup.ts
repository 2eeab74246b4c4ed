import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetToasts } from '@/components/ui/toast-store';

// Route modules load lazily; the first import of one in a worker can be slow,
// and slower still on a loaded two-core machine (vite.config.ts's testTimeout
// leaves room for it).
configure({ asyncUtilTimeout: 15_000 });

// The DOM of the tests (happy-dom, vite.config.ts) lacks a few browser APIs
// that Radix primitives and the receipt's Print button use.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
window.print ??= () => {};

afterEach(() => {
  cleanup();
  resetToasts();
});
