import '@testing-library/jest-dom/vitest';
import { cleanup, configure, getConfig } from '@testing-library/react';
import { defaultFallbackInView } from 'react-intersection-observer';
import { afterEach, vi } from 'vitest';
import { resetToasts } from '@/components/ui/toast-store';
import { resetKeyboardNavigation } from '@/hooks/use-keyboard-navigation';

// Route modules load lazily; the first import of one in a worker can be slow,
// and slower still on a loaded two-core machine (vite.config.ts's testTimeout
// leaves room for it).
//
// A query that finds nothing throws an error that prints the whole page
// (prettyDOM), and a findBy or waitFor builds one on every retry until the
// screen has loaded: a fifth of a screen test's CPU. Within those retries
// (Testing Library's _disableExpensiveErrorDiagnostics) the error carries
// the query's message alone; the error a test fails with, a getBy's or
// waitFor's at its timeout (built again then), still prints the page.
const pageError = getConfig().getElementError;
configure({
  asyncUtilTimeout: 15_000,
  getElementError(message, container) {
    if (!(getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics) return pageError(message, container);
    const error = new Error(message ?? '');
    error.name = 'TestingLibraryElementError';
    return error;
  },
});

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

// happy-dom's IntersectionObserver never reports (its observe is a stub), so
// it is taken away: without one, the dashboard's deferred cards
// (react-intersection-observer) count as in view, as on a tall screen.
(window as { IntersectionObserver?: unknown }).IntersectionObserver = undefined;
defaultFallbackInView(true);
// matchMedia, where the DOM lacks it: the screen is wide (the signed-in layout's sidebar, with
// its account menu, is shown from 1024 px).
window.matchMedia ??= (query: string) =>
  ({
    matches: true,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

// A full-page navigation (lib/browser's navigateTo: the downloads, the
// billing portal) is one the test DOM cannot make: happy-dom would fetch the
// page from a server that is not there. Every file gets a recorded stand-in,
// which the download and billing tests assert on; in setup, not in those
// files, so that they share their worker's module graph (vite.config.ts).
// One stand-in a worker: setup runs again before each file and the mock's
// module is made again for it, while the modules an earlier file loaded keep
// the one they imported; a second vi.fn would miss their calls.
vi.mock('@/lib/browser', () => {
  const worker = globalThis as { navigateToStandIn?: (url: string) => void };
  worker.navigateToStandIn ??= vi.fn();
  return { navigateTo: worker.navigateToStandIn };
});

// Each file starts on a blank page: the files that share their worker's
// module graph (isolate: false, vite.config.ts) also share its window, which
// the file before may have moved (history), titled or left cookies in.
window.history.replaceState(null, '', '/');
document.title = '';
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0].trim();
  if (name) document.cookie = `${name}=; max-age=0; path=/`;
}
localStorage.clear();
sessionStorage.clear();

afterEach(() => {
  cleanup();
  resetToasts();
  resetKeyboardNavigation();
});
