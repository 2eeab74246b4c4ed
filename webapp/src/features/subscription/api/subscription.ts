import { api } from '@/lib/api-client';

export type ClientSecretResponse = { clientSecret: string; message?: string };

export const createSubscription = () => api.post<ClientSecretResponse>('/api/subscription/create');

export const cancelSubscription = () => api.post<{ message: string }>('/api/subscription/cancel');
