import { api } from '@/lib/api-client';

/** POST /api/download/windows/link: a short-lived link to the installer. */
export type DownloadLink = { url: string; fileName: string; expiresAt: string };

/**
 * Asks the server for the download first, so a refusal (no subscription,
 * installer missing, outage) is an answer inside the app, not a page of JSON.
 */
export const createWindowsDownloadLink = () => api.post<DownloadLink>('/api/download/windows/link');
