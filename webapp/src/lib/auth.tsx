import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useSWRConfig } from 'swr';
import { toast } from '@/components/ui/toast-store';
import { describeError, onStaffMfaRequired, onUnauthorized } from '@/lib/api-client';
import { configKey } from '@/lib/app-config';
import { userKey, useUserQuery } from '@/lib/auth-api/get-user';
import { login, type LoginInput } from '@/lib/auth-api/login';
import { logout } from '@/lib/auth-api/logout';
import { register, type RegisterInput } from '@/lib/auth-api/register';
import { requestPasswordReset, type ResetRequestInput } from '@/lib/auth-api/reset-password';
import { resendVerification, verifyEmail } from '@/lib/auth-api/verify-email';
import type { User } from '@/lib/auth-api/types';
import { plansKey } from '@/lib/swr-config';

/** What every auth action reports (spec section 7). */
export type AuthResult = { success: true; user?: User } | { success: false; error: string };

type AuthContextValue = {
  user: User | null;
  /** True until the first session check ends. */
  loading: boolean;
  isAuthenticated: boolean;
  signIn: (input: LoginInput) => Promise<AuthResult>;
  signUp: (input: RegisterInput) => Promise<AuthResult>;
  signOut: () => Promise<AuthResult>;
  verify: (code: string) => Promise<AuthResult>;
  resendCode: () => Promise<AuthResult>;
  sendResetLink: (input: ResetRequestInput) => Promise<AuthResult>;
};

const AuthContext = createContext<AuthContextValue | null>(null);

function failed(title: string, error: string): AuthResult {
  toast({ title, description: error, variant: 'destructive' });
  return { success: false, error };
}

/**
 * A failure the caller shows inline, tied to its form (issue 38: the verify
 * screen's errors appear under 'Verification Error', spec section 3, and a
 * toast saying the same beside it was the error twice).
 */
const failedInline = (error: string): AuthResult => ({ success: false, error });

/** Public answers (config, plans, pages) outlive a session; the rest is the account's. */
const isAccountData = (key: unknown) =>
  typeof key === 'string' && key !== userKey && key !== configKey && key !== plansKey && !key.startsWith('/api/pages/');

export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, isLoading, mutate } = useUserQuery();
  const { mutate: globalMutate } = useSWRConfig();
  const user = data ?? null;

  // A session that ended under an open tab (expired, signed out elsewhere):
  // forget the user and every cached answer (the next to sign in in this tab
  // may be someone else), so RequireAuth sends the seller to /login,
  // remembering the page to come back to.
  useEffect(
    () =>
      onUnauthorized(() => {
        void globalMutate(isAccountData, undefined, { revalidate: false });
        void mutate(null, { revalidate: false });
      }),
    [mutate, globalMutate],
  );

  // A staff call refused for want of the second factor: mark the session
  // as not passed, so RequireStaff sends the staff member to the code prompt.
  useEffect(
    () =>
      onStaffMfaRequired(() => {
        void mutate((current) => (current?.mfa ? { ...current, mfa: { ...current.mfa, passed: false } } : current), {
          revalidate: true,
        });
      }),
    [mutate],
  );

  const value = useMemo<AuthContextValue>(() => {
    const setUser = (next: User | null) => mutate(next, { revalidate: false });

    return {
      user,
      loading: isLoading,
      isAuthenticated: user !== null,

      async signIn(input) {
        try {
          const response = await login(input);
          await setUser(response.user);
          toast({ title: 'Login Successful', description: 'Welcome back!', variant: 'success' });
          return { success: true, user: response.user };
        } catch (error) {
          return failed(
            'Login Failed',
            describeError(error, { server: 'Failed to sign in', network: 'An error occurred during sign in' }),
          );
        }
      },

      async signUp(input) {
        try {
          const response = await register(input);
          await setUser({ ...response.user, isVerified: false });
          toast({
            title: 'Registration Successful',
            description: 'Your account has been created. Please verify your email.',
            variant: 'success',
          });
          return { success: true, user: response.user };
        } catch (error) {
          return failed(
            'Registration Failed',
            describeError(error, { server: 'Failed to sign up', network: 'An error occurred during sign up' }),
          );
        }
      },

      async signOut() {
        try {
          await logout();
          // Forget every cached query of the signed-out user.
          await globalMutate(() => true, undefined, { revalidate: false });
          await setUser(null);
          toast({ title: 'Logged Out', description: 'You have been successfully logged out.' });
          return { success: true };
        } catch (error) {
          return failed(
            'Logout Failed',
            describeError(error, { server: 'Failed to sign out', network: 'An error occurred during sign out' }),
          );
        }
      },

      async verify(code) {
        try {
          await verifyEmail({ code });
          // Only isVerified changes; the rest (isStaff too) is the session's user.
          if (user) await setUser({ ...user, isVerified: true });
          toast({
            title: 'Email Verified',
            description: 'Your email has been successfully verified. Thank you!',
            variant: 'success',
          });
          return { success: true };
        } catch (error) {
          return failedInline(
            describeError(error, {
              server: 'Failed to verify email',
              network: 'An error occurred during email verification',
            }),
          );
        }
      },

      async resendCode() {
        try {
          await resendVerification();
          toast({
            title: 'Verification Code Sent',
            description: 'A new verification code has been sent to your email.',
          });
          return { success: true };
        } catch (error) {
          return failedInline(
            describeError(error, {
              server: 'Failed to resend verification code',
              network: 'An error occurred while resending verification code',
            }),
          );
        }
      },

      async sendResetLink(input) {
        try {
          await requestPasswordReset(input);
          toast({
            title: 'Password Reset Email Sent',
            description: 'Check your email for a link to reset your password.',
          });
          return { success: true };
        } catch (error) {
          return failed(
            'Password Reset Failed',
            describeError(error, {
              server: 'Failed to send password reset email',
              network: 'An error occurred during password reset',
            }),
          );
        }
      },
    };
  }, [user, isLoading, mutate, globalMutate]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}
