import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';

const REASON = 'A reason of 3 to 500 characters is required';

/** The dialog's text in; the payment, the credits (none: what is left) and a trimmed reason out. */
export const refundSchema = z.object({
  paymentId: z.string().trim().min(1, 'The payment to refund is required'),
  credits: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d+$/.test(v), 'Credits must be a whole number, or empty to refund what is left')
    .transform((v) => (v === '' ? undefined : Number(v)))
    .refine((n) => n === undefined || n >= 1, 'Credits must be at least 1, or empty to refund what is left'),
  reason: z.string().trim().min(3, REASON).max(500, REASON),
});

export type RefundForm = z.input<typeof refundSchema>;
export type RefundInput = z.output<typeof refundSchema>;

/** applied: the ledger shows it (simulated provider); requested: it shows when Stripe's webhook arrives. */
export type StaffActionResponse = {
  status: 'applied' | 'requested';
  message: string;
  amountCents?: number;
  refundId?: string;
  replayed?: boolean;
};

/**
 * Refunds a payment through the payment provider. idempotencyKey is made once
 * per dialog, so a retry after "try again" refunds once.
 */
export const createRefund = (accountId: string, input: RefundInput, idempotencyKey: string) =>
  api.post<StaffActionResponse>(`/api/staff/accounts/${encodeURIComponent(accountId)}/refunds`, input, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
