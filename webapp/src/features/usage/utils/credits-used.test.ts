import { describe, expect, it } from 'vitest';
import { creditsUsedPercent } from './credits-used';

describe('credits used', () => {
  it('caps the credits bar at 100 %', () => {
    expect(creditsUsedPercent(0)).toBe(0);
    expect(creditsUsedPercent(125)).toBe(50);
    expect(creditsUsedPercent(1)).toBe(0);
    expect(creditsUsedPercent(2)).toBe(1);
    expect(creditsUsedPercent(1000)).toBe(100);
  });
});
