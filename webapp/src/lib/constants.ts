/** Business constants of spec section 9. */
export const REDIRECT_AFTER_LOGIN_MS = 100;
export const REDIRECT_AFTER_VERIFY_MS = 2000;
export const DOWNLOAD_BUSY_MS = 1500;
export const COPY_INDICATOR_MS = 2000;
export const CREDITS_BAR_DIVISOR = 250;
export const RECENT_TRANSACTIONS = 3;
export const DEFAULT_BUY_MORE_CREDITS = 100;
export const VERIFICATION_CODE_LENGTH = 6;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/** Credits-used bar: used this month / 250, rounded, capped at 100 %. */
export function creditsUsedPercent(creditsUsed: number): number {
  return Math.min(100, Math.round((creditsUsed / CREDITS_BAR_DIVISOR) * 100));
}
