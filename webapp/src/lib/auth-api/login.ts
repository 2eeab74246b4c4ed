import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { AuthResponse } from './types';

export const loginSchema = z.object({
  email: z.email('Please enter a valid email address'),
  password: z.string().min(8, 'Password must be at least 8 characters'),
});

export type LoginInput = z.infer<typeof loginSchema>;

export const login = (input: LoginInput) => api.post<AuthResponse>('/api/login', input);
