import useSWR from 'swr';
import { api } from '@/lib/api-client';

/** The operator-edited pages the server renders from PAGES_DIR. */
export type PageSlug = 'contact' | 'privacy' | 'terms';

/** GET /api/pages/{slug}: the page's Markdown and its first heading. */
export type Page = { slug: PageSlug; title: string; markdown: string };

export const pageKey = (slug: PageSlug) => `/api/pages/${slug}`;

export function usePage(slug: PageSlug) {
  return useSWR<Page>(pageKey(slug), () => api.get<Page>(pageKey(slug)));
}
