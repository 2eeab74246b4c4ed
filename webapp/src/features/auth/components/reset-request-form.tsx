import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { useAuth } from '@/lib/auth';
import { resetRequestSchema, type ResetRequestInput } from '@/lib/auth-api/schemas';
import { paths } from '@/config/paths';

export function ResetRequestForm() {
  const { sendResetLink } = useAuth();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetRequestInput>({ resolver: zodResolver(resetRequestSchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async (values) => {
    const result = await sendResetLink(values);
    if (result.success) setSent(true);
  });

  const links = (
    <>
      <p className="form-footer">
        Remembered it?{' '}
        <Link to={paths.login} className="link">
          Sign in
        </Link>
      </p>
      <p className="form-footer">
        <Link to={paths.home} className="link-muted">
          Return to home
        </Link>
      </p>
    </>
  );

  if (sent) {
    return (
      <div className="result" role="status">
        <MailCheck size={40} className="result-icon result-icon-success" aria-hidden />
        <h2 className="result-title">Check Your Email</h2>
        <p>We&apos;ve sent instructions to reset your password. Please check your inbox and spam folder.</p>
        {links}
      </div>
    );
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <InputField
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        error={errors.email}
        registration={register('email')}
      />
      <Button type="submit" className="btn-block" busy={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send Reset Link'}
      </Button>
      {links}
    </form>
  );
}
