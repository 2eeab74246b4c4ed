import { BookOpen, Clock, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { PhoneSupport } from '@/components/phone-support';
import { Card, CardHeader } from '@/components/ui/card';
import { Faq } from '@/components/ui/faq';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { SupportForm } from '@/features/support/components/support-form';
import { SupportRequestsList } from '@/features/support/components/support-requests-list';
import { useAppConfig } from '@/lib/app-config';
import { paths } from '@/config/paths';

const FAQ = [
  { q: 'How do credits work?', a: 'Each listing operation or API request costs 1 credit. Monthly credits expire each billing cycle; purchased credits never expire.' },
  { q: 'How often is inventory synced?', a: 'Every 4 hours by default; you can choose anywhere from hourly to daily.' },
  { q: 'What is a VeRO check?', a: "It checks a product against eBay's Verified Rights Owner program before listing, to avoid takedowns." },
  { q: 'Is there a Mac version?', a: 'It is coming soon and will need macOS 11 or later.' },
];

export default function SupportRoute() {
  const { data: config, error, mutate } = useAppConfig();
  return (
    <div className="page">
      <h1 className="page-title">Support</h1>
      <div className="grid-2">
        <Card>
          <CardHeader title="Contact Support" description="Tell us what you need and we'll get back to you." />
          <SupportForm />
          <h2 className="card-subtitle card-section">Your Requests</h2>
          <SupportRequestsList />
        </Card>
        <div className="stack">
          <Card>
            <CardHeader title="Contact Information" />
            {config ? (
              <ul className="contact-list">
                <li>
                  <Mail size={18} aria-hidden />{' '}
                  <a className="link" href={`mailto:${config.supportEmail}`}>
                    {config.supportEmail}
                  </a>
                </li>
                {/* Phone support only where the operator has a number (SUPPORT_PHONE). */}
                {config.supportPhone && (
                  <li>
                    <PhoneSupport phone={config.supportPhone} />
                  </li>
                )}
                <li>
                  <Clock size={18} aria-hidden /> We respond within 24 hours
                </li>
              </ul>
            ) : error ? (
              <LoadError what="our contact details" onRetry={() => void mutate()} />
            ) : (
              <Spinner label="Loading contact details" />
            )}
          </Card>
          <Card>
            <CardHeader title="Documentation" action={<BookOpen size={20} aria-hidden />} />
            <p>
              Guides and API reference: see the <Link to={paths.tutorials} className="link">tutorials</Link> and the{' '}
              <Link to={paths.apiKeys} className="link">API documentation</Link>.
            </p>
          </Card>
        </div>
      </div>
      <Card>
        <CardHeader title="Frequently Asked Questions" />
        <Faq items={FAQ} />
      </Card>
    </div>
  );
}
