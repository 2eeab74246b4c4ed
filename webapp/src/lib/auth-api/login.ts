import { api } from '@/lib/api-client';
import type { LoginInput } from './schemas';
import type { AuthResponse } from './types';

export type { LoginInput };

export const login = (input: LoginInput) => api.post<AuthResponse>('/api/login', input);
