import { z } from '@/lib/zod';

/** Spec section 9: the email verification code's digits. */
export const VERIFICATION_CODE_LENGTH = 6;

// The auth forms' schemas, apart from their fetchers: lib/auth.tsx (in the
// entry chunk) imports the fetchers, and only the forms' chunks need zod
// (issue 38: zod off the landing page and the dashboard).

export const loginSchema = z.object({
  email: z.email('Please enter a valid email address'),
  password: z.string().min(8, 'Password must be at least 8 characters'),
});

export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    email: z.email('Please enter a valid email address'),
    password: z.string().min(8, 'Password must be at least 8 characters'),
    confirmPassword: z.string().min(8, 'Password must be at least 8 characters'),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export type RegisterInput = z.infer<typeof registerSchema>;

export const resetRequestSchema = z.object({
  email: z.email('Please enter a valid email address'),
});

export type ResetRequestInput = z.infer<typeof resetRequestSchema>;

/** The characters that count as special in a new password (spec section 5). */
const SPECIAL = /[!@#$%^&*(),.?":{}|<>]/;

export const completeResetSchema = z
  .object({
    newPassword: z
      .string()
      .min(10, 'Password must be at least 10 characters long')
      .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
      .regex(SPECIAL, 'Password must contain at least one special character'),
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export type CompleteResetInput = z.infer<typeof completeResetSchema>;

export const verifyEmailSchema = z.object({
  code: z.string().length(VERIFICATION_CODE_LENGTH, 'Please enter the 6-digit verification code'),
});

export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;
