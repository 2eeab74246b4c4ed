import { describe, expect, it } from 'vitest';
import { BILLING_DATE_FORMAT, formatDate } from './dates';
import { centsToDollars, dollarsToCents, formatCents, initials } from './format';

describe('format', () => {
  it('shows cents as US dollars', () => {
    expect(formatCents(2999)).toBe('$29.99');
    expect(formatCents(100000)).toBe('$1,000.00');
    expect(centsToDollars(999)).toBe('9.99');
  });

  it("reads a URL's dollar figure back to cents, and nothing else", () => {
    expect(dollarsToCents('9.99')).toBe(999);
    expect(dollarsToCents(centsToDollars(6999))).toBe(6999);
    expect(dollarsToCents('39.9')).toBe(3990);
    expect(dollarsToCents('10')).toBe(1000);
    for (const bad of [null, '', '0', '0.00', '-1', '9.999', 'abc', '1e3', ' 9.99']) expect(dollarsToCents(bad)).toBeNull();
  });

  it('formats dates as MMM dd, yyyy and MMMM dd, yyyy', () => {
    expect(formatDate('2025-01-05T10:00:00Z')).toBe('Jan 05, 2025');
    expect(formatDate('2025-03-15T12:00:00Z', BILLING_DATE_FORMAT)).toBe('March 15, 2025');
  });

  it('makes initials from an email', () => {
    expect(initials('jane.doe@example.com')).toBe('JD');
    expect(initials('bob@example.com')).toBe('BO');
  });
});
