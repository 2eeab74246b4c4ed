import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';

const CREDITS = 'Credits must be a whole number other than 0';
const REASON = 'A reason of 3 to 500 characters is required';
/** The server's bound on one adjustment. */
export const MAX_ADJUSTMENT = 1_000_000;

/** The form's text in, a signed whole number and a trimmed reason out. */
export const adjustmentSchema = z.object({
  credits: z
    .string()
    .trim()
    .regex(/^[-+]?\d+$/, CREDITS)
    .transform(Number)
    .refine((n) => n !== 0, CREDITS)
    .refine((n) => Math.abs(n) <= MAX_ADJUSTMENT, 'Credits must be between -1,000,000 and 1,000,000'),
  reason: z.string().trim().min(3, REASON).max(500, REASON),
});

export type AdjustmentForm = z.input<typeof adjustmentSchema>;
export type AdjustmentInput = z.output<typeof adjustmentSchema>;

export type AdjustmentResponse = { balance: number; position: number };

/**
 * Grants (credits > 0) or removes (credits < 0) credits as the signed-in
 * staff member. idempotencyKey is the same for a retry of the same
 * adjustment (the server grants once), new for the next one.
 */
export const createAdjustment = (accountId: string, input: AdjustmentInput, idempotencyKey: string) =>
  api.post<AdjustmentResponse>(`/api/staff/accounts/${encodeURIComponent(accountId)}/adjustments`, input, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
