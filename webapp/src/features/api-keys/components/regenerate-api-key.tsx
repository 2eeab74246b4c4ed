import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { useRegenerateApiKey } from '../api/regenerate-api-key';

/** Regenerate button with its confirmation dialog; closes on success. */
export function RegenerateApiKey() {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const regenerate = useRegenerateApiKey();

  async function onConfirm() {
    setPending(true);
    try {
      await regenerate();
      toast({
        title: 'API Key Regenerated',
        description: 'Your new API key is active. Update it in your desktop software.',
        variant: 'success',
      });
      setOpen(false);
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to regenerate API key.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <RefreshCw size={16} aria-hidden /> Regenerate API Key
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => !pending && setOpen(next)}
        title="Regenerate API Key"
        description="Your current key stops working at once. Any software using it must be updated with the new key."
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={pending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={onConfirm} busy={pending}>
              {pending ? 'Regenerating...' : 'Regenerate'}
            </Button>
          </>
        }
      />
    </>
  );
}
