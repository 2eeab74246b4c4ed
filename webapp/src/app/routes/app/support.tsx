import { BookOpen, Clock, Mail, Phone } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardHeader } from '@/components/ui/card';
import { Faq } from '@/components/ui/faq';
import { SupportForm } from '@/features/support/components/support-form';

const FAQ = [
  { q: 'How do credits work?', a: 'Each listing operation or API request costs 1 credit. Monthly credits expire each billing cycle; purchased credits never expire.' },
  { q: 'How often is inventory synced?', a: 'Every 4 hours by default; you can choose anywhere from hourly to daily.' },
  { q: 'What is a VeRO check?', a: "It checks a product against eBay's Verified Rights Owner program before listing, to avoid takedowns." },
  { q: 'Is there a Mac version?', a: 'It is coming soon and will need macOS 11 or later.' },
];

export default function SupportRoute() {
  return (
    <div className="page">
      <h1 className="page-title">Support</h1>
      <div className="grid-2">
        <Card>
          <CardHeader title="Contact Support" description="Tell us what you need and we'll get back to you." />
          <SupportForm />
        </Card>
        <div className="stack">
          <Card>
            <CardHeader title="Contact Information" />
            <ul className="contact-list">
              <li>
                <Mail size={18} aria-hidden /> support@a2e-automation.example
              </li>
              <li>
                <Phone size={18} aria-hidden /> Phone support Monday-Friday 9am-5pm EST
              </li>
              <li>
                <Clock size={18} aria-hidden /> We respond within 24 hours
              </li>
            </ul>
          </Card>
          <Card>
            <CardHeader title="Documentation" action={<BookOpen size={20} aria-hidden />} />
            <p>
              Guides and API reference: see the <Link to="/usage-history" className="link">tutorials</Link> and the{' '}
              <Link to="/api-keys" className="link">API documentation</Link>.
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
