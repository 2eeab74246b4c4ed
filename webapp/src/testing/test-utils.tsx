import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { installFakeApi, type Handler } from './fake-api';

/**
 * Renders the whole app at `path` with a fake network. Everything inside the
 * app (router, SWR, auth, toasts) is real.
 */
export function renderApp(path: string, api: Record<string, Handler> = {}) {
  const network = installFakeApi(api);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return {
    ...view,
    ...network,
    router,
    user,
    /** The current location, path plus query. */
    location: () => router.state.location.pathname + router.state.location.search,
  };
}

/** The text of the visible toast (spec: one at a time). */
export async function findToast(title: string) {
  return screen.findByText(title, { selector: '.toast-title' });
}

/** No toast is shown (where the form itself says what went wrong, once). */
export function expectNoToast() {
  expect(document.querySelector('.toast-title')).toBeNull();
}

export * from '@testing-library/react';
