import { api } from '@/lib/api-client';
import type { MessageResponse } from './types';

export const logout = () => api.post<MessageResponse>('/api/logout');
