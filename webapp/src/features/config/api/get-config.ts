import useSWR from 'swr';
import { api } from '@/lib/api-client';

export type AppConfig = {
  paymentProvider: 'simulated' | 'stripe';
  stripePublishableKey: string | null;
  environment: 'development' | 'production';
};

export const configKey = '/api/config';

export const getConfig = () => api.get<AppConfig>(configKey);

export function useAppConfig() {
  return useSWR<AppConfig>(configKey, getConfig);
}
