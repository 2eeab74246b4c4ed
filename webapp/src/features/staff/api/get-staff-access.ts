import useSWR from 'swr';
import { api, ApiError } from '@/lib/api-client';

/**
 * GET /api/user does not say who is staff; the staff search does, by
 * answering 404 to everyone else. An empty query costs the server nothing.
 */
export const staffAccessKey = '/api/staff/accounts?q=';

/** True for staff, false when the server hides the staff routes (404). */
export async function getStaffAccess(): Promise<boolean> {
  try {
    await api.get<unknown>(staffAccessKey);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

/** Asked once per session (the app's never-stale default). */
export function useStaffAccess() {
  return useSWR<boolean>(staffAccessKey, getStaffAccess);
}
