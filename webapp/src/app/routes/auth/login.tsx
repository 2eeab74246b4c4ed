import { AuthLayout } from '@/app/layouts/auth-layout';
import { LoginForm } from '@/features/auth/components/login-form';

export default function LoginRoute() {
  return (
    <AuthLayout title="Sign in to Account" description="Access your elite automation dashboard.">
      <LoginForm />
    </AuthLayout>
  );
}
