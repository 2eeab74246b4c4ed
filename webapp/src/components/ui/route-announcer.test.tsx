import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteAnnouncer } from './route-announcer';

describe('RouteAnnouncer', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('announces the new title once the path and the title both changed, not the first page', async () => {
    document.title = 'Product';
    render(<RouteAnnouncer />);
    const region = screen.getByTestId('route-announcer');
    expect(region).toHaveAttribute('aria-live', 'polite');
    // The first page names itself once rendered: not announced.
    await act(async () => {
      document.title = 'Dashboard · Product';
      await Promise.resolve();
    });
    expect(region).toHaveTextContent('');

    // A new path, then an unrelated change to <head> (a preload): nothing yet.
    await act(async () => {
      window.history.pushState(null, '', '/api-keys');
      document.head.appendChild(document.createElement('link'));
      await Promise.resolve();
    });
    expect(region).toHaveTextContent('');

    await act(async () => {
      document.title = 'API Keys · Product';
      await Promise.resolve();
    });
    expect(region).toHaveTextContent('API Keys · Product');
  });
});
