import { useSWRConfig } from 'swr';
import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';
import { getSupportRequests, supportRequestsKey } from './get-support-requests';

export const supportRequestSchema = z.object({
  subject: z.string().trim().min(3, 'Subject is required'),
  message: z.string().trim().min(10, 'Please provide more details'),
});

export type SupportRequestInput = z.infer<typeof supportRequestSchema>;

export const createSupportRequest = (input: SupportRequestInput) =>
  api.post<{ message: string }>('/api/support/requests', input);

/**
 * Sends a support request, then refetches the seller's requests into the
 * cache (the list under the form shows it), whether or not it is mounted.
 * A failed refetch keeps what is cached.
 */
export function useSendSupportRequest() {
  const { mutate } = useSWRConfig();
  return async (input: SupportRequestInput) => {
    const response = await createSupportRequest(input);
    await mutate(supportRequestsKey, getSupportRequests(), { revalidate: false }).catch(() => undefined);
    return response;
  };
}
