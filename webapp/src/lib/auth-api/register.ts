import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { AuthResponse } from './types';

export const registerSchema = z
  .object({
    email: z.email('Please enter a valid email address'),
    password: z.string().min(8, 'Password must be at least 8 characters'),
    confirmPassword: z.string().min(8, 'Password must be at least 8 characters'),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export type RegisterInput = z.infer<typeof registerSchema>;

export const register = ({ email, password }: RegisterInput) =>
  api.post<AuthResponse>('/api/register', { email, password });
