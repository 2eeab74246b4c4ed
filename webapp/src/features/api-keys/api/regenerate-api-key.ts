import { useSWRConfig } from 'swr';
import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';
import { apiKeysKey } from './api-keys';

export type RegenerateApiKeyResponse = { apiKey: string; message: string };

export const regenerateApiKey = () => api.post<RegenerateApiKeyResponse>('/api/user/api-key/regenerate');

/** Regenerates the Default key, then refetches the profile that shows it and the list of keys. */
export function useRegenerateApiKey() {
  const refetch = useRefetchAccount();
  const { mutate } = useSWRConfig();
  return async () => {
    const response = await regenerateApiKey();
    await Promise.all([refetch(accountKeys.profile), mutate(apiKeysKey)]);
    return response;
  };
}
