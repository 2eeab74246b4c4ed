import { Apple, Lock, Monitor } from 'lucide-react';
import { useEffect } from 'react';
import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Faq } from '@/components/ui/faq';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { MacDownloadButton, WindowsDownloadButton } from '@/features/download/components/download-buttons';
import { InstallerChecksum, InstallerVersion } from '@/features/download/components/installer-version';
import { MAC_REQUIREMENT, RELEASE_NOTES, WINDOWS_SOFTWARE } from '@/features/download/components/software-info';
import { useAppConfig } from '@/lib/app-config';
import { useProfile } from '@/lib/auth-api/get-profile';
import { paths } from '@/config/paths';

const STEPS = [
  'Download the installer for Windows.',
  'Run the installer and follow the prompts.',
  'Open the software and paste your API key from the API Keys page.',
  'Choose your marketplaces and start creating listings.',
];

const TROUBLESHOOTING = [
  { q: 'Windows blocks the installer', a: 'Choose "More info" then "Run anyway"; the installer is signed by us.' },
  { q: 'The software says my API key is invalid', a: 'Copy the key again from the API Keys page; regenerating it invalidates the old one.' },
  { q: 'Listings are not being created', a: 'Check that you have credits available and an active subscription.' },
];

export default function DownloadRoute() {
  const { data: profile, error, mutate } = useProfile();
  // The installer's facts as the server has them now: an operator may have
  // replaced the file since the app loaded.
  const { mutate: refreshConfig } = useAppConfig();
  useEffect(() => {
    void refreshConfig();
  }, [refreshConfig]);
  if (error && !profile) return <LoadError what="downloads" onRetry={() => void mutate()} />;
  if (!profile) return <Spinner label="Loading downloads" />;
  // Active, or cancelled but still in its paid period (cancelling).
  const active = profile.premiumAccess;

  return (
    <div className="page">
      <h1 className="page-title">Download Software</h1>
      {!active && (
        <Card className="card-warning">
          <CardHeader title="Active Subscription Required" action={<Lock size={20} aria-hidden />} />
          <p>Subscribe to download the desktop software and automate your listings.</p>
          <ButtonLink to={paths.subscription}>View Subscription</ButtonLink>
        </Card>
      )}
      <Card>
        <CardHeader title="Desktop Software" description="Automate Amazon to eBay listings from your computer." />
        <div className="download-list">
          <div className="download-row">
            <Monitor size={32} aria-hidden />
            <div className="download-meta">
              <strong>Windows</strong> <Badge tone="success">Latest</Badge>
              <InstallerVersion prefix="Version " />
              <ul className="bullets small">
                {WINDOWS_SOFTWARE.requirements.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </div>
            <WindowsDownloadButton active={active} />
          </div>
          <InstallerChecksum />
          <div className="download-row">
            <Apple size={32} aria-hidden />
            <div className="download-meta">
              <strong>Mac</strong>
              <span className="muted">Requires {MAC_REQUIREMENT}</span>
            </div>
            <MacDownloadButton />
          </div>
        </div>
        <h3 className="card-subtitle">What&apos;s new</h3>
        <ul className="bullets">
          {RELEASE_NOTES.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      </Card>
      <div className="grid-2">
        <Card>
          <CardHeader title="Installation Guide" />
          <ol className="steps">
            {STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </Card>
        <Card>
          <CardHeader title="Troubleshooting" />
          <Faq items={TROUBLESHOOTING} />
        </Card>
      </div>
    </div>
  );
}
