/** Full-page navigation (downloads). Separate so tests can replace it. */
export function navigateTo(url: string) {
  window.location.assign(url);
}
