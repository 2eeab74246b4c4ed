import { Apple, Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';
import { ApiError } from '@/lib/api-client';
import { navigateTo } from '@/lib/browser';
import { createWindowsDownloadLink } from '../api/download-link';

/** Spec section 9: the Windows button stays busy this long after a click. */
const DOWNLOAD_BUSY_MS = 1500;

const subscriptionRequired = () =>
  toast({
    title: 'Subscription Required',
    description: 'You need an active subscription to download the software',
    variant: 'destructive',
  });

/**
 * Windows installer download: needs an active subscription; busy for 1.5 s
 * after a click. The server is asked first (a short-lived link), so a
 * refusal or an outage shows the spec's toast instead of leaving the app.
 */
export function WindowsDownloadButton({ active }: { active: boolean }) {
  const [busy, setBusy] = useState(false);
  // The link request in flight: a second click must not record a second download.
  const requesting = useRef(false);

  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setBusy(false), DOWNLOAD_BUSY_MS);
    return () => clearTimeout(timer);
  }, [busy]);

  async function onClick() {
    if (!active) {
      subscriptionRequired();
      return;
    }
    if (requesting.current) return;
    requesting.current = true;
    setBusy(true);
    try {
      const link = await createWindowsDownloadLink();
      navigateTo(link.url);
      toast({ title: 'Download Started', description: 'Your download will begin shortly.', variant: 'info' });
    } catch (error) {
      // A subscription that lapsed since the page loaded is the server's 403.
      if (error instanceof ApiError && error.status === 403) {
        subscriptionRequired();
        return;
      }
      toast({
        title: 'Download Failed',
        description: 'There was an issue starting your download. Please try again later.',
        variant: 'destructive',
      });
    } finally {
      requesting.current = false;
    }
  }

  return (
    <div className="download-button">
      <Button onClick={() => void onClick()} busy={busy} variant={active ? 'primary' : 'outline'}>
        <Download size={16} aria-hidden />
        {!active ? 'Subscription Required' : busy ? 'Downloading...' : 'Download for Windows'}
      </Button>
      {!active && <p className="field-hint">An active subscription is required to download</p>}
    </div>
  );
}

export function MacDownloadButton() {
  return (
    <Button
      variant="outline"
      onClick={() =>
        toast({
          title: 'Mac Version',
          description: "The Mac version is coming soon. We'll notify you when it's available!",
          variant: 'info',
        })
      }
    >
      <Apple size={16} aria-hidden /> Coming Soon
    </Button>
  );
}
