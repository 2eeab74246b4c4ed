import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';

/** The server's bound on a reply. */
export const MAX_REPLY = 5000;

export const replySchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'A reply message is required')
    .max(MAX_REPLY, `The reply must be at most ${MAX_REPLY} characters`),
});

export type ReplyInput = z.infer<typeof replySchema>;

/** Keeps the reply in the thread and mails it to the seller; the request becomes answered. */
export const replySupportRequest = (id: string, input: ReplyInput) =>
  api.post<{ id: string; message: string; createdAt: string }>(
    `/api/staff/support-requests/${encodeURIComponent(id)}/replies`,
    input,
  );
