import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, type ButtonSize } from './button';
import { toast } from './toast-store';

/** Spec section 9: "Copied" shows this long. */
const COPY_INDICATOR_MS = 2000;

type CopyButtonProps = {
  text: string;
  /** The button's accessible name before copying ('Copy API key', 'Copy curl example'). */
  label: string;
  /** The toast once copied (the spec's 'API Key Copied' for the key). */
  copiedToast: { title: string; description: string };
  className?: string;
  size?: ButtonSize;
};

/** Copies text to the clipboard; shows a copied state for 2 s (spec section 9) and a toast. */
export function CopyButton({ text, label, copiedToast, className, size }: CopyButtonProps) {
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
      toast(copiedToast);
    } catch {
      toast({ title: 'Error', description: 'Could not copy to the clipboard.', variant: 'destructive' });
    }
  }

  return (
    <Button
      variant="outline"
      size={size}
      className={className}
      onClick={copy}
      aria-label={copied ? 'Copied' : label}
      disabled={!text}
    >
      {copied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
      <span className="btn-text">{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}
