import { api } from '@/lib/api-client';
import type { SupportStatus } from './get-support-inbox';

/** Opens, marks answered or closes a request. */
export const setSupportRequestStatus = (id: string, status: SupportStatus) =>
  api.post<{ status: SupportStatus; message: string }>(
    `/api/staff/support-requests/${encodeURIComponent(id)}/status`,
    { status },
  );
