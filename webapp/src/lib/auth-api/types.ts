export type User = {
  id: string;
  email: string;
  isVerified: boolean;
  /** Support staff, who see the staff console; the API answers 404 to everyone else there. */
  isStaff: boolean;
  /** A staff member's second factor (null or absent for sellers): the console needs `passed`. */
  mfa?: MfaStatus | null;
};

export type MfaStatus = {
  /** The console needs the second factor (staff). */
  required: boolean;
  /** A second factor is set up; false: the first sign-in sets it up. */
  enrolled: boolean;
  /** This session has passed it. */
  passed: boolean;
};

/** Whether user must still set up or enter the second factor before the staff console. */
export const needsStaffMfa = (user: User | null | undefined) => !!user?.isStaff && !!user.mfa?.required && !user.mfa.passed;

export type AuthResponse = {
  token: string;
  user: User;
  message?: string;
};

export type MessageResponse = { message: string };
