const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const wholeUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/**
 * The webapp's one money formatter. Amounts travel as integer cents
 * everywhere in the app and are shown as US dollars here: 999 -> "$9.99";
 * `{ whole: true }` for round limits, 10000000 -> "$100,000".
 */
export function formatCents(cents: number, { whole = false }: { whole?: boolean } = {}): string {
  return (whole ? wholeUsd : usd).format(cents / 100);
}

/**
 * Cents as a plain dollar figure, e.g. 999 -> "9.99", for the two places
 * dollars leave the app as text: the checkout return address, which spec
 * section 8 fixes as /checkout/success?amount={dollars} (built and read
 * back only in config/paths.ts), and a dollar field's value (auto-recharge's
 * monthly limit). dollarsToCents reads it back; pages show cents with
 * formatCents. See docs/webapp-money.md.
 */
export function centsToDollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A dollar figure (an address's, a field's) back to cents: "9.99" -> 999; null unless a positive amount. */
export function dollarsToCents(dollars: string | null): number | null {
  if (!dollars || !/^\d+(\.\d{1,2})?$/.test(dollars)) return null;
  const cents = Math.round(Number(dollars) * 100);
  return cents > 0 ? cents : null;
}

const whole = new Intl.NumberFormat('en-US');

/** Whole numbers (credits, counts) with separators: 1234 -> "1,234". */
export const formatCredits = (n: number) => whole.format(n);

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Initials for the user menu: "jane.doe@x.com" -> "JD". */
export function initials(email: string): string {
  const name = email.split('@')[0] ?? '';
  const parts = name.split(/[._\-+]+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[1][0] : name.slice(0, 2);
  return letters.toUpperCase();
}

/** A file size as Windows shows it: 14.2 MB (binary megabytes), 512 KB, 139 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
