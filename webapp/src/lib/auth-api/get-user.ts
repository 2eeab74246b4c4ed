import useSWR from 'swr';
import { getOrNull } from '@/lib/swr-config';
import type { User } from './types';

export const userKey = '/api/user';

/**
 * True when the server said this browser holds no session cookie (the
 * `a2e_signed_out` cookie, cmd/api/session.go): the session is then known
 * to be absent without asking, and a signed-out page makes no request that
 * can only answer 401. Without the hint the webapp asks, as the spec says.
 */
export function knownSignedOut(cookies = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookies.split(';').some((c) => c.trim() === 'a2e_signed_out=1');
}

/** GET /api/user; null (no user) when it fails with 401 or when known signed out. */
export const getUser = () => (knownSignedOut() ? Promise.resolve(null) : getOrNull<User>(userKey));

/** The session's user; null when signed out; undefined while loading. */
export function useUserQuery() {
  return useSWR<User | null>(userKey, getUser);
}
