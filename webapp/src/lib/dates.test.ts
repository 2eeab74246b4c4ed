import { format, parseISO } from 'date-fns';
import { AXIS_DATE_FORMAT, BILLING_DATE_FORMAT, DATE_FORMAT, formatDate, parseIsoDate, TIME_TO_SECOND_FORMAT, type DatePattern } from './dates';

// lib/dates.ts replaced date-fns on the seller's pages (issue 38); these
// hold it to the answers date-fns gave for the same inputs and patterns.
const inputs = [
  '2026-11-27',
  '2026-01-01',
  '2026-12-31',
  '2024-02-29',
  '2026-03-05T00:00:00Z',
  '2026-03-05T23:59:59.999Z',
  '2026-07-14T09:08:07.123456789Z',
  '2026-07-14T09:08:07,5Z',
  '2026-07-14T09:08:07+05:30',
  '2026-07-14T01:02:03-08:00',
  '2026-07-14T01:02:03-0800',
  '2026-07-14T01:02:03+02',
  '2026-07-14T09:08:07',
  '2026-07-14T09:08',
  '2026-07-14 09:08:07Z',
  '0099-05-06',
];
const patterns: DatePattern[] = [DATE_FORMAT, BILLING_DATE_FORMAT, TIME_TO_SECOND_FORMAT, AXIS_DATE_FORMAT];

describe('formatDate', () => {
  it.each(inputs)('writes %s as date-fns does, in every pattern', (iso) => {
    expect(parseIsoDate(iso).getTime()).toBe(parseISO(iso).getTime());
    for (const pattern of patterns) expect(formatDate(iso, pattern)).toBe(format(parseISO(iso), pattern));
  });

  it('writes the spec section 9 forms', () => {
    expect(formatDate('2026-11-07')).toBe('Nov 07, 2026');
    expect(formatDate('2026-09-30T12:00:00', BILLING_DATE_FORMAT)).toBe('September 30, 2026');
    expect(formatDate('2026-09-03T04:05:06', TIME_TO_SECOND_FORMAT)).toBe('Sep 03, 2026 04:05:06');
    expect(formatDate('2026-09-03', AXIS_DATE_FORMAT)).toBe('Sep 3');
  });

  it.each(['', 'yesterday', '2026-02-30', '2026-13-01', '2026-00-10', '2026-07-14T25:00:00Z', '2026-07-14T10:60:00Z'])(
    'refuses %j as date-fns does',
    (iso) => {
      expect(Number.isNaN(parseIsoDate(iso).getTime())).toBe(true);
      expect(Number.isNaN(parseISO(iso).getTime())).toBe(true);
      expect(() => formatDate(iso)).toThrow(RangeError);
    },
  );

  it('refuses 24:00, which date-fns reads as the next midnight (the API never writes it)', () => {
    expect(() => formatDate('2026-07-14T24:00:00Z')).toThrow(RangeError);
  });
});
