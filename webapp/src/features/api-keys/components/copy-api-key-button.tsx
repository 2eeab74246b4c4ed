import { CopyButton } from '@/components/ui/copy-button';

const copiedToast = { title: 'API Key Copied', description: 'The API key has been copied to your clipboard.' };

/** Copies the API key; the copied state for 2 s and the spec's 'API Key Copied' toast. */
export function CopyApiKeyButton({ text, label = 'Copy API key' }: { text: string; label?: string }) {
  return <CopyButton text={text} label={label} copiedToast={copiedToast} />;
}
