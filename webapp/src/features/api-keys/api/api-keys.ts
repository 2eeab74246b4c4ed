import useSWR, { useSWRConfig } from 'swr';
import { z } from '@/lib/zod';
import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';

/** One key of GET /api/api-keys (issue 34); `apiKey` is the key itself. */
export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  mode: 'live' | 'test';
  isDefault: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  /** Set on a key a rotation replaced: it works until then. */
  graceEndsAt: string | null;
  apiKey?: string;
};

export const apiKeysKey = '/api/api-keys';

/** The server's bounds: a name of 1 to 100 characters; a rotation's grace of 0 to 86,400 seconds. */
export const MAX_KEY_NAME = 100;

export const newKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'A key name is required')
    .max(MAX_KEY_NAME, `A key name can have at most ${MAX_KEY_NAME} characters`),
  /** Days until it expires; empty: never. */
  expiresInDays: z.enum(['', '7', '30', '90', '365']),
  mode: z.enum(['live', 'test']),
});

export type NewKeyInput = z.infer<typeof newKeySchema>;

/** The grace choices a rotation offers, in seconds. */
export const graceChoices = [
  { seconds: 0, label: 'Stop the old key at once' },
  { seconds: 3600, label: 'Keep the old key working for 1 hour' },
  { seconds: 86_400, label: 'Keep the old key working for 24 hours' },
] as const;

export function useApiKeys() {
  return useSWR<ApiKey[]>(apiKeysKey, () => api.get<ApiKey[]>(apiKeysKey));
}

/** The key mutations; each refetches the list, and the profile when the Default key changed. */
export function useApiKeyActions() {
  const { mutate } = useSWRConfig();
  const refetch = useRefetchAccount();
  const refresh = async (defaultChanged: boolean) => {
    await mutate(apiKeysKey);
    if (defaultChanged) await refetch(accountKeys.profile);
  };
  return {
    create: async (input: NewKeyInput) => {
      const expiresAt = input.expiresInDays
        ? new Date(Date.now() + Number(input.expiresInDays) * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
        : undefined;
      const made = await api.post<ApiKey>(apiKeysKey, {
        name: input.name.trim(),
        mode: input.mode,
        ...(expiresAt ? { expiresAt } : {}),
      });
      await refresh(false);
      return made;
    },
    rotate: async (key: ApiKey, graceSeconds: number) => {
      const made = await api.post<ApiKey>(`${apiKeysKey}/${encodeURIComponent(key.id)}/rotate`, { graceSeconds });
      await refresh(key.isDefault);
      return made;
    },
    revoke: async (key: ApiKey) => {
      await api.delete<void>(`${apiKeysKey}/${encodeURIComponent(key.id)}`);
      await refresh(false);
    },
  };
}

/** GET /api/sandbox and POST /api/sandbox/reset: the test credits test-mode keys spend. */
export type Sandbox = { credits: number };

export const sandboxKey = '/api/sandbox';

export function useSandbox() {
  return useSWR<Sandbox>(sandboxKey, () => api.get<Sandbox>(sandboxKey));
}

/** Resets the sandbox to 1,000 test credits and puts the answer in the cache. */
export function useResetSandbox() {
  const { mutate } = useSWRConfig();
  return async () => {
    const reset = await api.post<Sandbox>(`${sandboxKey}/reset`);
    await mutate(sandboxKey, reset, { revalidate: false });
    return reset;
  };
}
