import { describe, expect, it } from 'vitest';
import { customAmountProblem, priceForCredits } from '@/lib/plans';
import { plans } from '@/testing/data';

describe('priceForCredits', () => {
  it('prices as catalog.PriceCents: a package count at its package price, else per credit', () => {
    expect(priceForCredits(plans, 100)).toBe(999);
    expect(priceForCredits(plans, 500)).toBe(3999);
    expect(priceForCredits(plans, 1000)).toBe(6999);
    expect(priceForCredits(plans, 5)).toBe(50);
    expect(priceForCredits(plans, 250)).toBe(2500);
    expect(priceForCredits(plans, 100_000)).toBe(1_000_000);
  });
});

describe('customAmountProblem', () => {
  it('says the server’s messages for amounts out of bounds', () => {
    expect(customAmountProblem(plans, 5)).toBeNull();
    expect(customAmountProblem(plans, 4)).toBe('The minimum purchase is 5 credits ($0.50).');
    expect(customAmountProblem(plans, 100_001)).toBe('The maximum purchase is 100,000 credits.');
    expect(customAmountProblem(plans, 0)).toBe('Please select a package or enter a valid amount.');
  });
});
