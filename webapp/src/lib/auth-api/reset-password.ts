import { api } from '@/lib/api-client';
import type { ResetRequestInput } from './schemas';
import type { MessageResponse } from './types';

export type { ResetRequestInput };

export const requestPasswordReset = (input: ResetRequestInput) =>
  api.post<MessageResponse>('/api/auth/reset-password', input);

export type CompleteResetResponse = { success: boolean; message: string };

export const completePasswordReset = (token: string, newPassword: string) =>
  api.post<CompleteResetResponse>('/api/auth/reset-password/complete', { token, newPassword });
