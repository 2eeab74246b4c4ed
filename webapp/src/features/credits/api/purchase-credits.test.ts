import { describe, expect, it } from 'vitest';
import { plans } from '@/testing/data';
import { creditChoiceSchema, creditsOf, type CreditChoice } from './purchase-credits';

const schema = creditChoiceSchema(plans);

/** The first issue's field and message, or null when the choice is valid. */
function problem(choice: CreditChoice) {
  const result = schema.safeParse(choice);
  return result.success ? null : { field: result.error.issues[0].path.join('.'), message: result.error.issues[0].message };
}

describe('the credit purchase dialog’s schema', () => {
  it('takes a package, or a custom whole number within the catalogue’s bounds', () => {
    expect(problem({ package: 500, custom: '' })).toBeNull();
    expect(problem({ package: null, custom: '5' })).toBeNull();
    expect(problem({ package: null, custom: ' 250 ' })).toBeNull();
    expect(problem({ package: null, custom: '100000' })).toBeNull();
    expect(creditsOf({ package: 500, custom: '' })).toBe(500);
    expect(creditsOf({ package: null, custom: ' 250 ' })).toBe(250);
  });

  it('says the spec’s message when nothing is chosen', () => {
    expect(problem({ package: null, custom: '' })).toEqual({
      field: 'package',
      message: 'Please select a package or enter a valid amount.',
    });
  });

  it('says why a custom amount cannot be bought, on the custom field', () => {
    for (const custom of ['0', '2.5', '-3', 'abc']) {
      expect(problem({ package: null, custom })).toEqual({
        field: 'custom',
        message: 'Please select a package or enter a valid amount.',
      });
    }
    expect(problem({ package: null, custom: '4' })).toEqual({
      field: 'custom',
      message: 'The minimum purchase is 5 credits ($0.50).',
    });
    expect(problem({ package: null, custom: '100001' })).toEqual({
      field: 'custom',
      message: 'The maximum purchase is 100,000 credits.',
    });
  });
});
