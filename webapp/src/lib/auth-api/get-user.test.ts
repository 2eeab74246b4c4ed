import { afterEach, describe, expect, it, vi } from 'vitest';
import { getUser, knownSignedOut } from './get-user';

describe('the signed-out hint', () => {
  afterEach(() => {
    document.cookie = 'a2e_signed_out=; max-age=0; path=/';
    vi.restoreAllMocks();
  });

  it('reads a2e_signed_out=1 among other cookies, nothing else', () => {
    expect(knownSignedOut('theme=dark; a2e_signed_out=1')).toBe(true);
    expect(knownSignedOut('a2e_signed_out=1')).toBe(true);
    expect(knownSignedOut('')).toBe(false);
    expect(knownSignedOut('a2e_signed_out=0; x=a2e_signed_out=1x')).toBe(false);
  });

  it('answers no user without a request when the server said signed out', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    document.cookie = 'a2e_signed_out=1; path=/';
    await expect(getUser()).resolves.toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('asks GET /api/user without the hint', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ message: 'Not signed in' }), { status: 401, headers: { 'Content-Type': 'application/json' } }));
    await expect(getUser()).resolves.toBeNull();
    expect(String(fetchSpy.mock.calls[0][0])).toContain('/api/user');
  });
});
