import type { ReactNode } from 'react';
import { Logo } from '@/components/ui/logo';

/** Centred card for the public auth screens. */
export function AuthLayout({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-logo">
          <Logo size="large" />
        </div>
        <h1 className="auth-title">{title}</h1>
        {description && <p className="auth-description">{description}</p>}
        {children}
      </div>
    </main>
  );
}
