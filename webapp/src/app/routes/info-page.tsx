import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Logo } from '@/components/ui/logo';
import { PhoneSupport } from '@/components/phone-support';
import { Spinner } from '@/components/ui/spinner';
import { usePage, type PageSlug } from '@/features/pages/api/get-page';
import { Markdown } from '@/features/pages/components/markdown';
import { useAppConfig } from '@/lib/app-config';
import { paths } from '@/config/paths';

/**
 * Phone support, where the operator has a number (SUPPORT_PHONE); the
 * email address is in the page itself ({{supportEmail}}).
 */
function ContactPhone() {
  const phone = useAppConfig().data?.supportPhone;
  if (!phone) return null;
  return (
    <p className="contact-list">
      <PhoneSupport phone={phone} />
    </p>
  );
}

/** A public page: contact, privacy and terms from the Markdown an operator edits, or the built-in API guide. */
export function InfoPage({ slug, wide = false }: { slug: PageSlug; wide?: boolean }) {
  const { data, error, mutate } = usePage(slug);
  return (
    <div className="info-page">
      <header className="info-page-header">
        <Logo />
        <nav aria-label="Pages" className="footer-nav">
          <Link to={paths.contact}>Contact</Link>
          <Link to={paths.privacy}>Privacy</Link>
          <Link to={paths.terms}>Terms</Link>
        </nav>
      </header>
      <main className={wide ? 'page' : 'page narrow'}>
        <Card>
          {data ? (
            <>
              <Markdown text={data.markdown} />
              {slug === 'contact' && <ContactPhone />}
            </>
          ) : error ? (
            <LoadError what="this page" onRetry={() => void mutate()} />
          ) : (
            <Spinner label="Loading" />
          )}
        </Card>
      </main>
    </div>
  );
}

export function ContactRoute() {
  return <InfoPage slug="contact" />;
}
export function PrivacyRoute() {
  return <InfoPage slug="privacy" />;
}
export function TermsRoute() {
  return <InfoPage slug="terms" />;
}
export function DesktopApiGuideRoute() {
  return <InfoPage slug="desktop-api" wide />;
}
