import { useEffect, useState } from 'react';

/**
 * Says the new page's name to screen readers after a client-side
 * navigation (issue 38, item 4), as a full page load would: each route
 * sets document.title once its page has rendered (app/router.tsx), so the
 * announcer waits for the title to change after the path did. The first
 * page is not announced (the browser does that).
 */
export function RouteAnnouncer() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    // Other changes to <head> (the preloads of a page's code) come first:
    // wait for a new path and a new title both.
    let announcedPath = window.location.pathname;
    let announcedTitle = document.title;
    const observer = new MutationObserver(() => {
      const path = window.location.pathname;
      const title = document.title;
      if (path === announcedPath) {
        // The same page naming itself (the first page's title once it renders).
        announcedTitle = title;
        return;
      }
      if (title === announcedTitle) return;
      announcedPath = path;
      announcedTitle = title;
      setMessage(title);
    });
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message}
    </div>
  );
}
