import { z } from 'zod';
import { api } from '@/lib/api-client';

export const supportRequestSchema = z.object({
  subject: z.string().trim().min(3, 'Subject is required'),
  message: z.string().trim().min(10, 'Please provide more details'),
});

export type SupportRequestInput = z.infer<typeof supportRequestSchema>;

export const createSupportRequest = (input: SupportRequestInput) =>
  api.post<{ message: string }>('/api/support/requests', input);
