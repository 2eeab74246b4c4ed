import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Transaction } from './get-transactions';

/** GET /api/transactions/{id}: one payment with what its receipt shows. */
export type Receipt = Transaction & {
  currency: string;
  /** Credits bought; 0 when the payment names none. */
  credits: number;
  /** Cents refunded so far, in total. */
  refundedAmount: number;
  /** The card charged, when the ledger knows it (an auto-recharge's saved card). */
  paymentMethod: { brand: string; last4: string } | null;
  /** The seller's, whom it was charged to. */
  email: string;
  productName: string;
};

export const receiptKey = (id: string) => `/api/transactions/${encodeURIComponent(id)}`;

export function useReceipt(id: string) {
  return useSWR<Receipt>(receiptKey(id), () => api.get<Receipt>(receiptKey(id)));
}
