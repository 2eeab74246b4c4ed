import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { useAuth } from '@/lib/auth';
import { VERIFICATION_CODE_LENGTH, verifyEmailSchema, type VerifyEmailInput } from '@/lib/auth-api/schemas';
import { paths } from '@/config/paths';

/** Spec section 9: the success message shows this long before the dashboard. */
const REDIRECT_AFTER_VERIFY_MS = 2000;

export function VerifyEmailForm({ email }: { email: string }) {
  const { verify, resendCode } = useAuth();
  const navigate = useNavigate();
  const [verified, setVerified] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  // The error shows here only (no toast), described by the form.
  const errorId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<VerifyEmailInput>({ resolver: zodResolver(verifyEmailSchema), defaultValues: { code: '' } });

  useEffect(() => {
    if (!verified) return;
    const timer = setTimeout(() => navigate(paths.dashboard, { replace: true }), REDIRECT_AFTER_VERIFY_MS);
    return () => clearTimeout(timer);
  }, [verified, navigate]);

  const onSubmit = handleSubmit(async ({ code }) => {
    setError(null);
    try {
      const result = await verify(code);
      if (result.success) setVerified(true);
      else setError(result.error || 'Verification failed. Please try again.');
    } catch {
      setError('An error occurred during verification');
    }
  });

  async function onResend() {
    setError(null);
    setResending(true);
    try {
      const result = await resendCode();
      if (!result.success) setError(result.error || 'Failed to resend verification code. Please try again.');
    } catch {
      setError('An error occurred sending the code');
    } finally {
      setResending(false);
    }
  }

  if (verified) {
    return (
      <div className="result" role="status">
        <CheckCircle2 size={40} className="result-icon result-icon-success" aria-hidden />
        <p>
          <strong>Success!</strong> Your email has been verified. Redirecting to dashboard...
        </p>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-describedby={error ? errorId : undefined}>
      <p className="auth-description">
        We are sending a 6-digit code to <strong>{email}</strong>. It usually arrives within a minute.
      </p>
      {error && (
        <div id={errorId} className="alert alert-error" role="alert">
          <h2 className="alert-title">Verification Error</h2>
          <p>{error}</p>
        </div>
      )}
      <InputField
        label="Verification code"
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="000000"
        maxLength={VERIFICATION_CODE_LENGTH}
        className="input-code"
        error={errors.code}
        registration={register('code')}
      />
      <Button type="submit" className="btn-block" busy={isSubmitting}>
        {isSubmitting ? 'Verifying...' : 'Verify Email'}
      </Button>
      <Button variant="outline" className="btn-block" busy={resending} onClick={onResend}>
        {resending ? 'Sending...' : 'Resend Verification Code'}
      </Button>
    </form>
  );
}
