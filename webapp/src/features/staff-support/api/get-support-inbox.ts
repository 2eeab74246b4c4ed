import useSWRInfinite from 'swr/infinite';
import { api } from '@/lib/api-client';
import { revalidateOnShow } from '@/lib/swr-config';

export const SUPPORT_STATUSES = ['open', 'answered', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** The seller's account as the inbox and a thread show it beside a request. */
export type InboxAccount = {
  id: string;
  email: string;
  creditsAvailable: number;
  subscriptionStatus: string;
  /** RFC 3339 while the subscription is cancelling, when the server gives it. */
  subscriptionEndsAt?: string | null;
  /** Credits owed after a refund or a lost dispute. */
  creditDebt?: number;
  /** A payment dispute is open: the desktop API refuses to spend. */
  spendingFrozen?: boolean;
};

/** A request in the inbox, with its seller's account beside it (null when the account is gone). */
export type InboxRequest = {
  id: string;
  accountId: string;
  email: string;
  subject: string;
  message: string;
  status: SupportStatus;
  /** ISO time. */
  createdAt: string;
  updatedAt: string;
  replyCount: number;
  account: InboxAccount | null;
};

export type InboxPage = { requests: InboxRequest[]; nextCursor?: string };

/** The key of page `index` of the inbox of status ('' for every status); null after the last page. */
export function inboxPageKey(status: SupportStatus | '') {
  return (index: number, previous: InboxPage | null): string | null => {
    if (previous && !previous.nextCursor) return null;
    const params = new URLSearchParams();
    if (status) params.set('status', status);
    if (index > 0 && previous?.nextCursor) params.set('cursor', previous.nextCursor);
    const query = params.toString();
    return `/api/staff/support-requests${query ? `?${query}` : ''}`;
  };
}

export const getInboxPage = (key: string) => api.get<InboxPage>(key);

/** Support requests newest first, of one status or all; more pages come with setSize. */
export function useSupportInbox(status: SupportStatus | '') {
  return useSWRInfinite<InboxPage>(inboxPageKey(status), getInboxPage, revalidateOnShow);
}
