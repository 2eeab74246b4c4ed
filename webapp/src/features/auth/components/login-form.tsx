import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { useAuth } from '@/lib/auth';
import { loginSchema, type LoginInput } from '@/lib/auth-api/schemas';
import { needsStaffMfa } from '@/lib/auth-api/types';
import { paths } from '@/config/paths';
import { AuthFormLinks, EmailField } from './auth-form-parts';

/** Spec section 9: the pause between a successful sign-in and the dashboard. */
const REDIRECT_AFTER_LOGIN_MS = 100;

export function LoginForm() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  // The page RequireAuth sent the seller here from, to return to.
  const from = (useLocation().state as { from?: string } | null)?.from;
  // A refused sign-in stays on the form (issue 38, item 4): the toast
  // vanishes after a few seconds, this alert until the next attempt.
  const [failure, setFailure] = useState('');
  const failureId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFailure('');
    const result = await signIn(values);
    if (!result.success) {
      setFailure(result.error);
      return;
    }
    const target = !result.user?.isVerified
      ? paths.verifyEmail
      : needsStaffMfa(result.user)
        ? paths.staffMfa
        : from && from !== paths.login
          ? from
          : paths.dashboard;
    await new Promise((resolve) => setTimeout(resolve, REDIRECT_AFTER_LOGIN_MS));
    navigate(target, { replace: true });
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-describedby={failure ? failureId : undefined}>
      {failure && (
        <div id={failureId} className="alert alert-error" role="alert">
          {failure}
        </div>
      )}
      <EmailField error={errors.email} registration={register('email')} />
      <InputField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        registration={register('password')}
      />
      <div className="form-row-end">
        <Link to={paths.resetPassword} className="link">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="btn-block" busy={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign in'}
      </Button>
      <AuthFormLinks prompt="Don't have an account?" to={paths.register} action="Sign up" />
    </form>
  );
}
