import { endOfDay, isValid, parseISO } from 'date-fns';

const signed = new Intl.NumberFormat('en-US', { signDisplay: 'exceptZero' });

/** 100 -> "+100", -5 -> "-5", 0 -> "0". */
export const formatCreditChange = (n: number) => signed.format(n);

/**
 * The as-of moment of a picked day (yyyy-MM-dd): the end of that day in the
 * viewer's time zone, the zone every time on the page is shown in. Null for
 * anything that is not a date.
 */
export function endOfDayIso(day: string | null): string | null {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const date = parseISO(day);
  return isValid(date) ? endOfDay(date).toISOString() : null;
}
