export type ParsedCredits = { ok: true; credits: number } | { ok: false; title: string; description: string };

/** Spec section 5: the checkout's credits query parameter must be a positive integer. */
export function parseCredits(raw: string | null): ParsedCredits {
  if (raw === null || raw.trim() === '') {
    return { ok: false, title: 'Missing Information', description: 'Credit amount is required.' };
  }
  const credits = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(credits) || credits <= 0) {
    return { ok: false, title: 'Invalid Amount', description: 'Please select a valid credit amount.' };
  }
  return { ok: true, credits };
}
