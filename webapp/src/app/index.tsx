import { BrowserRouter } from 'react-router';
import { RouteAnnouncer } from '@/components/ui/route-announcer';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <RouteAnnouncer />
    </AppProvider>
  );
}
