import { format, parseISO } from 'date-fns';

// Apart from format.ts: config/paths.ts (in the entry chunk) imports
// format.ts, and date-fns is for the pages that show dates, not every page's
// first paint (issue 38).

/** Spec section 9: dates in lists. */
export const DATE_FORMAT = 'MMM dd, yyyy';
/** Spec section 9: the next billing date. */
export const BILLING_DATE_FORMAT = 'MMMM dd, yyyy';
/** Times to the second, as the staff console shows them (staff compare moments). */
export const TIME_TO_SECOND_FORMAT = 'MMM dd, yyyy HH:mm:ss';

export function formatDate(iso: string, pattern: string = DATE_FORMAT): string {
  return format(parseISO(iso), pattern);
}
