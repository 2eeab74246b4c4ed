import { beforeEach, describe, expect, it, vi } from 'vitest';

const loadStripe = vi.fn();
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

describe('getStripe', () => {
  beforeEach(() => {
    loadStripe.mockReset();
    vi.resetModules();
  });

  it('loads Stripe.js once per key', async () => {
    const { getStripe } = await import('./stripe');
    loadStripe.mockResolvedValue({ id: 'stripe' });
    await expect(getStripe('pk_test_a')).resolves.toEqual({ id: 'stripe' });
    await expect(getStripe('pk_test_a')).resolves.toEqual({ id: 'stripe' });
    expect(loadStripe).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    const { getStripe } = await import('./stripe');
    loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js')).mockResolvedValue({ id: 'stripe' });
    await expect(getStripe('pk_test_b')).rejects.toThrow('Failed to load Stripe.js');
    await expect(getStripe('pk_test_b')).resolves.toEqual({ id: 'stripe' });
    expect(loadStripe).toHaveBeenCalledTimes(2);
  });

  it('forgets a load that gave no Stripe', async () => {
    const { getStripe } = await import('./stripe');
    loadStripe.mockResolvedValueOnce(null).mockResolvedValue({ id: 'stripe' });
    await expect(getStripe('pk_test_c')).resolves.toBeNull();
    await expect(getStripe('pk_test_c')).resolves.toEqual({ id: 'stripe' });
    expect(loadStripe).toHaveBeenCalledTimes(2);
  });
});
