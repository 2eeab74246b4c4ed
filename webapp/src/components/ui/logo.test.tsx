import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Logo } from './logo';

describe('Logo', () => {
  it.each([
    ['small', 24],
    ['medium', 32],
    ['large', 40],
  ] as const)('is %s at %i px', (size, px) => {
    render(
      <MemoryRouter>
        <Logo size={size} />
      </MemoryRouter>,
    );
    const img = screen.getByRole('img', { name: 'the product logo' });
    expect(img).toHaveAttribute('width', String(px));
    expect(img).toHaveAttribute('height', String(px));
    expect(img).toHaveAttribute('src', '/logo.svg');
  });

  it('shows the product name and links home by default, or to a given path', () => {
    render(
      <MemoryRouter>
        <Logo />
        <Logo to="/dashboard" />
      </MemoryRouter>,
    );
    const links = screen.getAllByRole('link', { name: /Amazon to eBay Automation/ });
    expect(links[0]).toHaveAttribute('href', '/');
    expect(links[1]).toHaveAttribute('href', '/dashboard');
  });
});
