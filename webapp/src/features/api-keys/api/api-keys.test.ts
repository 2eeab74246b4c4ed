import { describe, expect, it } from 'vitest';
import { MAX_KEY_NAME, graceChoices, newKeySchema } from './api-keys';

describe('newKeySchema', () => {
  const valid = { name: 'Office PC', expiresInDays: '' as const, mode: 'live' as const };

  it('accepts a name, a mode and an optional expiry', () => {
    expect(newKeySchema.safeParse(valid).success).toBe(true);
    expect(newKeySchema.safeParse({ ...valid, mode: 'test', expiresInDays: '30' }).success).toBe(true);
  });

  it("refuses an empty or too long name with the server's messages", () => {
    const empty = newKeySchema.safeParse({ ...valid, name: '   ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0].message).toBe('A key name is required');
    const long = newKeySchema.safeParse({ ...valid, name: 'x'.repeat(MAX_KEY_NAME + 1) });
    expect(long.error?.issues[0].message).toBe('A key name can have at most 100 characters');
    expect(newKeySchema.safeParse({ ...valid, name: 'x'.repeat(MAX_KEY_NAME) }).success).toBe(true);
  });

  it('refuses an unknown mode', () => {
    expect(newKeySchema.safeParse({ ...valid, mode: 'prod' }).success).toBe(false);
  });
});

describe('graceChoices', () => {
  it('stay within the server bounds of 0 to 86,400 seconds', () => {
    for (const c of graceChoices) expect(c.seconds).toBeGreaterThanOrEqual(0);
    for (const c of graceChoices) expect(c.seconds).toBeLessThanOrEqual(86_400);
  });
});
