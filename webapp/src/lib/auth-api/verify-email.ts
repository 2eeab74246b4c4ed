import { api } from '@/lib/api-client';
import type { VerifyEmailInput } from './schemas';
import type { MessageResponse, User } from './types';

export type { VerifyEmailInput };

export const verifyEmail = (input: VerifyEmailInput) =>
  api.post<MessageResponse & { user?: User }>('/api/auth/verify-email', input);

export const resendVerification = () => api.post<MessageResponse>('/api/auth/resend-verification');
