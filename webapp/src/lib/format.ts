const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Amounts are stored in cents and shown as US dollars. */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/**
 * Cents as a plain dollar figure for URLs, e.g. 999 -> "9.99": spec section
 * 8 fixes the checkout return address as /checkout/success?amount={dollars}.
 * dollarsToCents reads it back; the page shows it with formatCents.
 */
export function centsToDollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A dollar figure from a URL back to cents: "9.99" -> 999; null unless a positive amount. */
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
