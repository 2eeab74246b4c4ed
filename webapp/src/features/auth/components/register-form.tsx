import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { useAuth } from '@/lib/auth';
import { registerSchema, type RegisterInput } from '@/lib/auth-api/schemas';
import { paths } from '@/config/paths';
import { AuthFormLinks, EmailField } from './auth-form-parts';

export function RegisterForm() {
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { email: '', password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    const result = await signUp(values);
    if (result.success) navigate(paths.verifyEmail, { replace: true });
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <EmailField error={errors.email} registration={register('email')} />
      <InputField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        registration={register('password')}
      />
      <InputField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword}
        registration={register('confirmPassword')}
      />
      <p className="form-note">
        <ShieldCheck size={16} aria-hidden /> Your data is secured with enterprise-grade encryption.
      </p>
      <Button type="submit" className="btn-block" busy={isSubmitting}>
        {isSubmitting ? 'Creating account...' : 'Create account'}
      </Button>
      <AuthFormLinks prompt="Already have an account?" to={paths.login} action="Sign in" />
    </form>
  );
}
