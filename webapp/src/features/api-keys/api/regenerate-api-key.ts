import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';

export type RegenerateApiKeyResponse = { apiKey: string; message: string };

export const regenerateApiKey = () => api.post<RegenerateApiKeyResponse>('/api/user/api-key/regenerate');

/** Regenerates the key, then refetches the profile that shows it. */
export function useRegenerateApiKey() {
  const refetch = useRefetchAccount();
  return async () => {
    const response = await regenerateApiKey();
    await refetch(accountKeys.profile);
    return response;
  };
}
