import { afterEach, describe, expect, it } from 'vitest';
import { installFakeApi } from '@/testing/fake-api';
import { api } from '@/lib/api-client';
import { startEarlyFor } from './start-early';

function pageWith(bootstrap: string) {
  const doc = document.implementation.createHTMLDocument('a2e');
  const script = doc.createElement('script');
  script.type = 'application/json';
  script.id = 'a2e-bootstrap';
  script.textContent = bootstrap;
  doc.head.append(script);
  return doc;
}

describe('startEarlyFor', () => {
  afterEach(() => {
    // Whatever the test left unread is read here, so the next test starts with none.
    for (const path of ['/api/config', '/api/user', '/api/user/profile', '/api/transactions', '/api/usage-statistics']) {
      void api.get(path).catch(() => undefined);
    }
  });

  it("answers the first reads from the page's bootstrap and asks the server only for the rest", async () => {
    const { fetchMock } = installFakeApi({
      'GET /api/transactions': { body: [] },
      'GET /api/usage-statistics': { body: { today: 0 } },
      'GET /api/user': { body: { email: 'fetched@example.com' } },
    });
    const doc = pageWith(
      JSON.stringify({
        '/api/config': { productName: 'Lister' },
        '/api/user': { email: 'seller@example.com' },
        '/api/user/profile': { creditsAvailable: 42 },
      }),
    );
    startEarlyFor('/dashboard', doc);
    expect(doc.getElementById('a2e-bootstrap'), 'read once').toBeNull();
    await expect(api.get('/api/user')).resolves.toEqual({ email: 'seller@example.com' });
    await expect(api.get('/api/user/profile')).resolves.toEqual({ creditsAvailable: 42 });
    await expect(api.get('/api/config')).resolves.toEqual({ productName: 'Lister' });
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).sort();
    expect(asked).toEqual(['/api/transactions', '/api/usage-statistics']);
    // Read once: the next read asks the server.
    await expect(api.get('/api/user')).resolves.toEqual({ email: 'fetched@example.com' });
  });

  it('asks the server when the bootstrap is not JSON', async () => {
    const { fetchMock } = installFakeApi({ 'GET /api/config': { body: { productName: 'Lister' } } });
    startEarlyFor('/', pageWith('{not json'));
    await expect(api.get('/api/config')).resolves.toEqual({ productName: 'Lister' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
