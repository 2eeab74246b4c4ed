import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast, TOAST_DURATION_MS } from './toast-store';
import { Toaster } from './toaster';

describe('toasts', () => {
  afterEach(() => vi.useRealTimers());

  it('shows one toast at a time, the newest', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', description: 'More', variant: 'destructive' });
    });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getByText('Second').closest('.toast')).toHaveClass('toast-destructive');
  });

  it('closes after 5000 ms', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Hello' });
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByText('Hello')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Hello')).not.toBeInTheDocument();
  });

  it('closes on its close button', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Bye' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Bye')).not.toBeInTheDocument();
  });

  it('F8 focuses the notifications region', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Look here' });
    });
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(region.contains(document.activeElement)).toBe(true);
  });
});
