import { z } from 'zod';
import { api } from '@/lib/api-client';
import { VERIFICATION_CODE_LENGTH } from '@/lib/constants';
import type { MessageResponse, User } from './types';

export const verifyEmailSchema = z.object({
  code: z.string().length(VERIFICATION_CODE_LENGTH, 'Please enter the 6-digit verification code'),
});

export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

export const verifyEmail = (input: VerifyEmailInput) =>
  api.post<MessageResponse & { user?: User }>('/api/auth/verify-email', input);

export const resendVerification = () => api.post<MessageResponse>('/api/auth/resend-verification');
