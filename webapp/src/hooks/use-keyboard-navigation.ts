import { useSyncExternalStore } from 'react';

// Whether the seller has pressed Tab on this page load: set once, never
// cleared. The dashboard's deferred cards (issue 38) load when they come
// near the viewport; a keyboard user moves by focus, not by scrolling, and
// would tab past a card that is still a grey placeholder, so the first Tab
// loads them all, long before focus reaches them.
let tabbed = false;
const listeners = new Set<() => void>();

function onKeyDown(event: KeyboardEvent) {
  if (event.key !== 'Tab' || tabbed) return;
  tabbed = true;
  document.removeEventListener('keydown', onKeyDown, true);
  for (const listener of listeners) listener();
}

function subscribe(onChange: () => void) {
  if (!tabbed && listeners.size === 0) document.addEventListener('keydown', onKeyDown, true);
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) document.removeEventListener('keydown', onKeyDown, true);
  };
}

/** True from the first press of Tab on this page load. */
export function useKeyboardNavigation(): boolean {
  return useSyncExternalStore(subscribe, () => tabbed);
}

/**
 * Forgets the Tab press, as a new page load would: for the unit tests,
 * whose files share their worker's modules (vite.config.ts) and so this
 * flag, which a test that presses Tab would otherwise leave set for the
 * files after it.
 */
export function resetKeyboardNavigation() {
  tabbed = false;
}
