import { createBrowserRouter, RouterProvider } from 'react-router';
import { RouteAnnouncer } from '@/components/ui/route-announcer';
import { AppProvider } from './provider';
import { routes } from './router';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
      <RouteAnnouncer />
    </AppProvider>
  );
}
