// Apart from format.ts: config/paths.ts (in the entry chunk) imports
// format.ts, and dates are for the pages that show them, not every page's
// first paint (issue 38).
//
// No date library here: the dashboard's first paint shows dates, and
// date-fns's format() and parseISO() were 22 KB of its code (7 KB brotli)
// for the four patterns below. These read ISO 8601 as date-fns's parseISO
// does (a date alone, or a time without an offset, is local time; `Z` or an
// offset is that instant) and write in local time as its format() does,
// the fields (the month's name, the local day and time) from the browser's
// Intl.DateTimeFormat; dates.test.ts holds them to date-fns's answers. (date-fns stays for the
// staff console's filters, features/staff-accounts/utils/format.ts.)

/** Spec section 9: dates in lists. */
export const DATE_FORMAT = 'MMM dd, yyyy';
/** Spec section 9: the next billing date. */
export const BILLING_DATE_FORMAT = 'MMMM dd, yyyy';
/** Times to the second, as the staff console shows them (staff compare moments). */
export const TIME_TO_SECOND_FORMAT = 'MMM dd, yyyy HH:mm:ss';
/** A chart's axis: the month and the day alone. */
export const AXIS_DATE_FORMAT = 'MMM d';

export type DatePattern = typeof DATE_FORMAT | typeof BILLING_DATE_FORMAT | typeof TIME_TO_SECOND_FORMAT | typeof AXIS_DATE_FORMAT;

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2}(?:[.,]\d+)?))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * The instant an ISO 8601 date or date-time names (as the API writes them:
 * `2026-11-27`, `2026-11-27T10:04:05.123Z`, `…+01:00`); Invalid Date when it
 * names none, such as February 30th or 24:00.
 */
export function parseIsoDate(iso: string): Date {
  const m = ISO_8601.exec(iso.trim());
  if (!m) return new Date(NaN);
  const [y, mo, d, h, mi] = m.slice(1, 6).map((part) => Number(part ?? 0));
  const seconds = parseFloat((m[6] ?? '0').replace(',', '.'));
  const ms = Math.trunc(seconds * 1000);
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate() || h > 23 || mi > 59 || seconds >= 60) {
    return new Date(NaN);
  }
  const zone = m[7];
  if (zone === undefined) {
    const local = new Date(y, mo - 1, d, h, mi, 0, ms);
    local.setFullYear(y, mo - 1, d); // years 0-99 are not 1900-1999
    return local;
  }
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
  }
  const utc = new Date(Date.UTC(y, mo - 1, d, h, mi, 0, ms) - offsetMinutes * 60_000);
  return utc;
}

// The calendar fields of a date in local time, in English, from the
// browser's Intl (the month's name; numbers written out below to the
// patterns' widths, as date-fns does: Intl writes the year 99 as "99").
const FIELDS = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

function fieldsOf(date: Date) {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of FIELDS.formatToParts(date)) parts[type] = value;
  return parts;
}

const two = (value = '') => value.padStart(2, '0');

/** An ISO 8601 date or date-time in one of the patterns above, in local time (RangeError when it is not a date). */
export function formatDate(iso: string, pattern: DatePattern = DATE_FORMAT): string {
  const date = parseIsoDate(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  const f = fieldsOf(date);
  return pattern.replace(/MMMM|MMM|dd|d|yyyy|HH|mm|ss/g, (token) => {
    switch (token) {
      case 'MMMM':
        return f.month ?? '';
      case 'MMM':
        return (f.month ?? '').slice(0, 3);
      case 'dd':
        return two(f.day);
      case 'd':
        return f.day ?? '';
      case 'yyyy':
        return (f.year ?? '').padStart(4, '0');
      case 'HH':
        return two(f.hour);
      case 'mm':
        return two(f.minute);
      default:
        return two(f.second);
    }
  });
}
