import { useSWRConfig } from 'swr';
import { api } from '@/lib/api-client';
import { profileKey } from '@/lib/profile';

export type RegenerateApiKeyResponse = { apiKey: string; message: string };

export const regenerateApiKey = () => api.post<RegenerateApiKeyResponse>('/api/user/api-key/regenerate');

/** Regenerates the key, then refetches the profile that shows it. */
export function useRegenerateApiKey() {
  const { mutate } = useSWRConfig();
  return async () => {
    const response = await regenerateApiKey();
    await mutate(profileKey);
    return response;
  };
}
