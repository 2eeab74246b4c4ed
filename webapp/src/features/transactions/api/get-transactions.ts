import useSWR, { type SWRConfiguration } from 'swr';
import { accountKeys } from '@/lib/account-data';
import { api } from '@/lib/api-client';

export type Transaction = {
  id: string;
  /** ISO date. */
  transactionDate: string;
  description: string;
  /** Cents. */
  amount: number;
  status: string;
  /** Stripe's hosted invoice: a subscription payment's. */
  invoiceUrl?: string | null;
  /** Our receipt page (absolute): a paid payment without an invoice, i.e. a credit purchase's. */
  receiptUrl?: string | null;
};

/** Spec section 9: the dashboard shows the newest 3. */
export const RECENT_TRANSACTIONS = 3;

export const transactionsKey = accountKeys.transactions;

export const getTransactions = () => api.get<Transaction[]>(transactionsKey);

/** Newest first, as the server sends them. */
/** `options` can make a screen follow the ledger live (`liveRefresh` in lib/swr-config). */
export function useTransactions(options?: SWRConfiguration<Transaction[]>) {
  return useSWR<Transaction[]>(transactionsKey, getTransactions, options);
}
