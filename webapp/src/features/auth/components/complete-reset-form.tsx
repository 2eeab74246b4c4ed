import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, ButtonLink } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { ApiError } from '@/lib/api-client';
import { completePasswordReset } from '@/lib/auth-api/reset-password';
import { completeResetSchema, type CompleteResetInput } from '@/lib/auth-api/schemas';
import { paths } from '@/config/paths';

const MISSING_TOKEN_MESSAGE = 'Invalid or missing reset token. Please request a new password reset link.';
const FAILED_MESSAGE = 'Failed to reset password. Please try again.';
const UNEXPECTED_MESSAGE = 'An unexpected error occurred. Please try again.';

type State = { kind: 'form' } | { kind: 'success' } | { kind: 'error'; message: string };

export function CompleteResetForm({ token }: { token: string | null }) {
  const [state, setState] = useState<State>(
    token ? { kind: 'form' } : { kind: 'error', message: MISSING_TOKEN_MESSAGE },
  );
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CompleteResetInput>({
    resolver: zodResolver(completeResetSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ newPassword }) => {
    try {
      const response = await completePasswordReset(token ?? '', newPassword);
      if (response.success) {
        toast({
          title: 'Password Reset Successful',
          description: 'Your password has been updated. You can now login with your new password.',
          variant: 'success',
        });
        setState({ kind: 'success' });
      } else {
        setState({ kind: 'error', message: response.message || FAILED_MESSAGE });
      }
    } catch (error) {
      const message = error instanceof ApiError ? (error.serverMessage ?? FAILED_MESSAGE) : UNEXPECTED_MESSAGE;
      setState({ kind: 'error', message });
    }
  });

  if (state.kind === 'success') {
    return (
      <div className="result" role="status">
        <CheckCircle2 size={40} className="result-icon result-icon-success" aria-hidden />
        <h2 className="result-title">Password Reset Successful!</h2>
        <p>Your password has been updated. You can now sign in with your new password.</p>
        <ButtonLink to={paths.login} className="btn-block">
          Go to Login
        </ButtonLink>
      </div>
    );
  }

  if (state.kind === 'error') {
    return (
      <div className="result" role="alert">
        <XCircle size={40} className="result-icon result-icon-error" aria-hidden />
        <h2 className="result-title">Password Reset Failed</h2>
        <p>{state.message}</p>
        <ButtonLink to={paths.resetPassword} className="btn-block">
          Request New Reset Link
        </ButtonLink>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <InputField
        label="New Password"
        type="password"
        autoComplete="new-password"
        error={errors.newPassword}
        hint="At least 10 characters, with one uppercase letter and one special character."
        registration={register('newPassword')}
      />
      <InputField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword}
        registration={register('confirmPassword')}
      />
      <Button type="submit" className="btn-block" busy={isSubmitting}>
        {isSubmitting ? 'Resetting...' : 'Reset Password'}
      </Button>
    </form>
  );
}
