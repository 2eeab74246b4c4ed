import useSWR from 'swr';
import { getOrNull } from '@/lib/swr-config';
import type { User } from './types';

export const userKey = '/api/user';

export const getUser = () => getOrNull<User>(userKey);

/** The session's user; null when signed out; undefined while loading. */
export function useUserQuery() {
  return useSWR<User | null>(userKey, getUser);
}
