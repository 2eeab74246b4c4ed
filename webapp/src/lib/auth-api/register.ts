import { api } from '@/lib/api-client';
import type { RegisterInput } from './schemas';
import type { AuthResponse } from './types';

export type { RegisterInput };

export const register = ({ email, password }: RegisterInput) =>
  api.post<AuthResponse>('/api/register', { email, password });
