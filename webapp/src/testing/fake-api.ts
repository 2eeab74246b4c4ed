import { vi } from 'vitest';
import * as data from './data';
import { usageDailyReply } from './usage-daily-data';

/** What a fake endpoint answers. */
export type Reply = { status?: number; body?: unknown; statusText?: string };
export type Call = { method: string; path: string; url: string; body: unknown; headers: Record<string, string> };
export type Handler = Reply | ((call: Call) => Reply | Promise<Reply>);

/** Every endpoint a signed-in, verified user with an active subscription reaches. */
export function defaultRoutes(): Record<string, Handler> {
  return {
    'GET /api/user': { body: data.verifiedUser },
    'GET /api/user/profile': { body: data.activeProfile },
    'GET /api/usage-statistics': { body: data.usage },
    'GET /api/usage/daily': usageDailyReply(),
    'GET /api/transactions': { body: data.transactions },
    'GET /api/plans': { body: data.plans },
    'GET /api/config': { body: data.simulatedConfig },
    'GET /api/support/requests': { body: { requests: [] } },
    'GET /api/account/spend-limits': { body: data.noSpendLimits },
    'GET /api/account/alerts': { body: { lowBalanceCredits: null, expiringReminderDays: null } },
    'GET /api/account/auto-recharge': { body: data.noAutoRecharge },
  };
}

export const signedOut: Record<string, Handler> = {
  'GET /api/user': { status: 401, body: { message: 'Unauthorized' } },
};

/**
 * Replaces fetch, the network boundary, with a table of endpoints
 * ("METHOD /path" without the query). Unknown endpoints answer 404.
 * Returns the calls made, for assertions.
 */
export function installFakeApi(overrides: Record<string, Handler> = {}) {
  const routes = { ...defaultRoutes(), ...overrides };
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://localhost').pathname;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    // Names lower-cased, as HTTP compares them: headers['idempotency-key']
    // (happy-dom's Headers keeps the case it was given).
    const headers = Object.fromEntries([...new Headers(init?.headers).entries()].map(([name, value]) => [name.toLowerCase(), value]));
    const call = { method, path, url, body, headers };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    const reply: Reply = handler === undefined ? { status: 404, body: { message: 'Not found' } } : typeof handler === 'function' ? await handler(call) : handler;
    const status = reply.status ?? 200;
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(status === 204 ? null : text, { status, statusText: reply.statusText ?? '' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    /** Calls to one endpoint. */
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A reply that never comes (to hold a loading state). */
export const never: Handler = () => new Promise<Reply>(() => {});
