import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/router';
import { installFakeApi, type Handler } from './fake-api';

type Probe = { navigate?: NavigateFunction; location?: Location };

/** Hands the test the router's navigate function and current location. */
function RouterProbe({ probe }: { probe: Probe }) {
  const navigate = useNavigate();
  const location = useLocation();
  useLayoutEffect(() => {
    probe.navigate = navigate;
    probe.location = location;
  });
  return null;
}

/**
 * Renders the whole app at `path` with a fake network. Everything inside the
 * app (router, SWR, auth, toasts) is real; the router is a MemoryRouter
 * around the same routes the BrowserRouter of app/index.tsx renders.
 */
export function renderApp(path: string, api: Record<string, Handler> = {}) {
  const network = installFakeApi(api);
  const probe: Probe = {};
  const user = userEvent.setup();
  const view = render(
    <AppProvider>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <RouterProbe probe={probe} />
      </MemoryRouter>
    </AppProvider>,
  );
  const router = {
    /** A client-side navigation, as a link would make. */
    navigate: (to: string) =>
      act(async () => {
        await probe.navigate!(to);
      }),
  };
  return {
    ...view,
    ...network,
    router,
    user,
    /** The current location, path plus query. */
    location: () => (probe.location ? probe.location.pathname + probe.location.search : ''),
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
