import { Outlet } from 'react-router';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { useAppConfig } from '@/lib/app-config';
import NotFoundRoute from '../not-found';

/**
 * The development pages exist only with the simulated payment provider (the
 * server's dev routes behind them answer 404 otherwise): everyone else gets
 * the not-found screen, as for any unknown address.
 */
export default function RequireSimulatedProvider() {
  const { data: config, error, mutate } = useAppConfig();
  if (!config) {
    if (error) return <LoadError what="the payment settings" onRetry={() => void mutate()} />;
    return <Spinner fullPage label="Loading" />;
  }
  return config.paymentProvider === 'simulated' ? <Outlet /> : <NotFoundRoute />;
}
