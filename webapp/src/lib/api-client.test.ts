import { describe, expect, it } from 'vitest';
import { installFakeApi } from '@/testing/fake-api';
import { api, ApiError, describeError } from './api-client';

describe('api-client', () => {
  it('sends cookies and a JSON content type, and parses JSON', async () => {
    const { fetchMock } = installFakeApi({ 'POST /api/login': { body: { token: 't' } } });
    await expect(api.post('/api/login', { email: 'a@b.co' })).resolves.toEqual({ token: 't' });
    const [, init] = fetchMock.mock.calls[0];
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"email":"a@b.co"}');
  });

  it('throws "STATUS: body" on an error response', async () => {
    installFakeApi({ 'POST /api/login': { status: 401, body: { message: 'Invalid email or password' } } });
    const error = await api.post('/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('401: {"message":"Invalid email or password"}');
    expect((error as ApiError).serverMessage).toBe('Invalid email or password');
  });

  it('uses the status text when the body is empty', async () => {
    installFakeApi({ 'GET /api/user/profile': { status: 500, body: '', statusText: 'Internal Server Error' } });
    await expect(api.get('/api/user/profile')).rejects.toThrow('500: Internal Server Error');
  });

  it('describes errors: server message, server fallback, network fallback', () => {
    const fallbacks = { server: 'Failed to sign in', network: 'An error occurred during sign in' };
    expect(describeError(new ApiError(400, '{"message":"Nope"}'), fallbacks)).toBe('Nope');
    expect(describeError(new ApiError(502, 'Bad Gateway'), fallbacks)).toBe('Failed to sign in');
    expect(describeError(new TypeError('Failed to fetch'), fallbacks)).toBe('An error occurred during sign in');
  });
});
