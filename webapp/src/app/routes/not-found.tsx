import { AlertTriangle } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';

export default function NotFoundRoute() {
  const navigate = useNavigate();
  return (
    <main className="not-found">
      <Logo size="large" tone="light" />
      <AlertTriangle size={56} className="not-found-icon" aria-hidden />
      <p className="not-found-code">404</p>
      <h1 className="not-found-title">Page Not Found</h1>
      <p className="not-found-text">The page you&apos;re looking for doesn&apos;t exist or has been moved.</p>
      <div className="not-found-actions">
        <ButtonLink to={paths.home}>Return to Homepage</ButtonLink>
        <Button variant="outline" onClick={() => navigate(-1)}>
          Go Back
        </Button>
      </div>
    </main>
  );
}
