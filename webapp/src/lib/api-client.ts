/**
 * The one caller of fetch. Every request sends the session cookie and a JSON
 * content type. A non-success response throws an ApiError whose message is
 * `STATUS: body-or-status-text` (spec section 8).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string) {
    super(`${status}: ${body}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The `message` field of a JSON error body, if there is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const message = (parsed as { message: unknown }).message;
        if (typeof message === 'string' && message !== '') return message;
      }
    } catch {
      // Not JSON: the body is not a server message.
    }
    return undefined;
  }

  /** The stable `code` of a JSON error body (such as `staff_mfa_required`), if there is one. */
  get code(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { code?: unknown };
      return typeof parsed.code === 'string' ? parsed.code : undefined;
    } catch {
      return undefined;
    }
  }

  /** Per-field messages of a JSON error body (`errors: {field: msg}`). */
  get fieldErrors(): Record<string, string> {
    try {
      const parsed = JSON.parse(this.body) as { errors?: Record<string, string> };
      return parsed.errors ?? {};
    } catch {
      return {};
    }
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Calls whose 401 is their own answer (wrong password, not signed in yet),
 * not an expired session.
 */
function answersWith401(path: string) {
  return path === '/api/login' || path === '/api/register' || path === '/api/user' || path.startsWith('/api/auth/');
}

const unauthorizedListeners = new Set<() => void>();

/**
 * Calls listener whenever a request answers 401 because the session has
 * ended (expired, signed out elsewhere); returns the unsubscribe function.
 */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

const mfaRequiredListeners = new Set<() => void>();

/**
 * Calls listener whenever a staff call answers 403 staff_mfa_required (the
 * session has not passed the second factor); returns the unsubscribe
 * function.
 */
export function onStaffMfaRequired(listener: () => void): () => void {
  mfaRequiredListeners.add(listener);
  return () => {
    mfaRequiredListeners.delete(listener);
  };
}

/** Extra request headers, such as an Idempotency-Key. */
export type RequestOptions = { headers?: Record<string, string> };

async function request<T>(method: Method, path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...options?.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401 && !answersWith401(path)) {
      for (const listener of unauthorizedListeners) listener();
    }
    const error = new ApiError(response.status, text || response.statusText);
    if (response.status === 403 && error.code === 'staff_mfa_required') {
      for (const listener of mfaRequiredListeners) listener();
    }
    throw error;
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** GETs started before the code that reads them has loaded (startEarly). */
const early = new Map<string, Promise<unknown>>();
const EARLY_TTL_MS = 15_000;

/**
 * Starts these GETs now, in parallel with the route's code (main.tsx,
 * app/start-early.ts): the first `api.get` of each path within 15 s takes
 * its answer instead of asking again, so the session, the code and the data
 * no longer arrive one after the other.
 */
export function startEarly(paths: readonly string[]) {
  for (const path of paths) {
    if (early.has(path)) continue;
    const answer = request<unknown>('GET', path);
    answer.catch(() => undefined); // its reader handles the failure
    early.set(path, answer);
    setTimeout(() => {
      if (early.get(path) === answer) early.delete(path);
    }, EARLY_TTL_MS);
  }
}

/**
 * Takes answers the server already gave (the page's bootstrap, app/start-early.ts)
 * as the first answer of each path's first `api.get`, within 15 s as startEarly's.
 */
export function seedEarly(answers: Record<string, unknown>) {
  for (const [path, answer] of Object.entries(answers)) {
    const settled = Promise.resolve(answer);
    early.set(path, settled);
    setTimeout(() => {
      if (early.get(path) === settled) early.delete(path);
    }, EARLY_TTL_MS);
  }
}

function takeEarly<T>(path: string): Promise<T> | undefined {
  const answer = early.get(path);
  early.delete(path);
  return answer as Promise<T> | undefined;
}

export const api = {
  get: <T>(path: string) => takeEarly<T>(path) ?? request<T>('GET', path),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** The server's message when the server answered, otherwise undefined. */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/**
 * Picks the text to show for a failed call: the server's message, the
 * fallback for a server answer without one, or the fallback for a call that
 * never got an answer (network failure).
 */
export function describeError(
  error: unknown,
  fallbacks: { server: string; network: string },
): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallbacks.server;
  return fallbacks.network;
}
