import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { InboxRequest } from './get-support-inbox';
import { revalidateOnShow } from '@/lib/swr-config';

export type StaffReply = { id: string; author: string; message: string; /** ISO time. */ createdAt: string };

export type SupportThread = InboxRequest & { replies: StaffReply[] };

export const supportRequestKey = (id: string) => `/api/staff/support-requests/${encodeURIComponent(id)}`;

/** One request with its thread and the seller's account. */
export function useSupportRequest(id: string) {
  return useSWR<SupportThread>(supportRequestKey(id), (key: string) => api.get<SupportThread>(key), revalidateOnShow);
}
