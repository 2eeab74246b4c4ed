import useSWR from 'swr';
import { api } from '@/lib/api-client';

/** The public pages: the operator's (PAGES_DIR) and the built-in desktop API guide. */
export type PageSlug = 'contact' | 'privacy' | 'terms' | 'desktop-api';

/** GET /api/pages/{slug}: the page's Markdown and its first heading. */
export type Page = { slug: PageSlug; title: string; markdown: string };

export const pageKey = (slug: PageSlug) => `/api/pages/${slug}`;

export function usePage(slug: PageSlug) {
  return useSWR<Page>(pageKey(slug), () => api.get<Page>(pageKey(slug)));
}
