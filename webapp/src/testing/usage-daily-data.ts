import type { UsageDaily } from '@/features/usage/api/get-usage-daily';
import type { Call, Reply } from './fake-api';

/**
 * GET /api/usage/daily as the server answers it: every day of the
 * request's range, oldest first, zeros but for `credits[date]`.
 */
export function usageDailyReply(credits: Record<string, number> = {}) {
  return (call: Call): Reply => {
    const q = new URL(call.url, 'http://localhost').searchParams;
    const days: UsageDaily['days'] = [];
    for (let d = new Date(`${q.get('from')}T00:00:00Z`); d <= new Date(`${q.get('to')}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
      const date = d.toISOString().slice(0, 10);
      const c = credits[date] ?? 0;
      days.push({ date, credits: c, listings: c > 0 ? 1 : 0, veroChecks: 0, refunded: 0 });
    }
    return { body: { days } };
  };
}
