import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { MessageResponse } from './types';

export const resetRequestSchema = z.object({
  email: z.email('Please enter a valid email address'),
});

export type ResetRequestInput = z.infer<typeof resetRequestSchema>;

export const requestPasswordReset = (input: ResetRequestInput) =>
  api.post<MessageResponse>('/api/auth/reset-password', input);

/** The characters that count as special in a new password (spec section 5). */
const SPECIAL = /[!@#$%^&*(),.?":{}|<>]/;

export const completeResetSchema = z
  .object({
    newPassword: z
      .string()
      .min(10, 'Password must be at least 10 characters long')
      .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
      .regex(SPECIAL, 'Password must contain at least one special character'),
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export type CompleteResetInput = z.infer<typeof completeResetSchema>;

export type CompleteResetResponse = { success: boolean; message: string };

export const completePasswordReset = (token: string, newPassword: string) =>
  api.post<CompleteResetResponse>('/api/auth/reset-password/complete', { token, newPassword });
