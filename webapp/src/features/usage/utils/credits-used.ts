/** Spec section 9: the credits-used bar is full at 250 credits a month. */
export const CREDITS_BAR_DIVISOR = 250;

/** Credits-used bar: used this month / 250, rounded, capped at 100 %. */
export function creditsUsedPercent(creditsUsed: number): number {
  return Math.min(100, Math.round((creditsUsed / CREDITS_BAR_DIVISOR) * 100));
}
