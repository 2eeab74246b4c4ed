import useSWR from 'swr';
import { api } from '@/lib/api-client';

export type SupportReply = { message: string; /** ISO time. */ createdAt: string };

export type SupportRequestStatus = 'open' | 'answered' | 'closed';

/** One of the seller's own requests and support's replies to it. */
export type OwnSupportRequest = {
  id: string;
  subject: string;
  message: string;
  status: SupportRequestStatus;
  /** ISO time. */
  createdAt: string;
  replies: SupportReply[];
};

export const supportRequestsKey = '/api/support/requests';

export const getSupportRequests = () => api.get<{ requests: OwnSupportRequest[] }>(supportRequestsKey);

/** The signed-in seller's latest requests, newest first, with the replies. */
export function useSupportRequests() {
  return useSWR(supportRequestsKey, getSupportRequests, { revalidateIfStale: true });
}
