import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { resetRequestSchema, type ResetRequestInput } from '@/lib/auth-api/schemas';
import { paths } from '@/config/paths';
import { AuthFormLinks, EmailField } from './auth-form-parts';

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

  const links = <AuthFormLinks prompt="Remembered it?" to={paths.login} action="Sign in" />;

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
      <EmailField error={errors.email} registration={register('email')} />
      <Button type="submit" className="btn-block" busy={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send Reset Link'}
      </Button>
      {links}
    </form>
  );
}
