import { z } from '@/lib/zod';
import { api } from '@/lib/api-client';
import type { User } from '@/lib/auth-api/types';

/** A new second factor, shown once: the TOTP secret, its otpauth:// URL and the recovery codes. */
export type MfaEnrolment = { secret: string; otpauthUrl: string; recoveryCodes: string[] };

export type MfaVerified = { message: string; user: User; recoveryCodesLeft: number };

const CODE = 'Enter the 6-digit code of your authenticator app, or a recovery code';

/** A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx), as typed. */
export const mfaCodeSchema = z.object({
  code: z.string().trim().min(6, CODE).max(32, CODE),
});

export type MfaCodeInput = z.infer<typeof mfaCodeSchema>;

/** Starts (or starts again, before a code verified) the signed-in staff member's enrolment. */
export const enrollMfa = () => api.post<MfaEnrolment>('/api/auth/mfa/enroll');

/** Checks a code; the session then passes the second factor. */
export const verifyMfa = (input: MfaCodeInput) => api.post<MfaVerified>('/api/auth/mfa/verify', input);
