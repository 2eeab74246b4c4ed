import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { COPY_INDICATOR_MS } from '@/lib/constants';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';

/** Copies text; shows a copied state for 2 s and the 'API Key Copied' toast. */
export function CopyApiKeyButton({ text, label = 'Copy API key' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: 'API Key Copied', description: 'The API key has been copied to your clipboard.' });
    } catch {
      toast({ title: 'Error', description: 'Could not copy to the clipboard.', variant: 'destructive' });
    }
  }

  return (
    <Button variant="outline" onClick={copy} aria-label={copied ? 'Copied' : label} disabled={!text}>
      {copied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
      <span className="btn-text">{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}
