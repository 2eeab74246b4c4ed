import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { PROJECTIONS, rebuildProjection, type ProjectionName } from '../api/rebuild-projection';
import '@/styles/staff.css';

/**
 * Pick a read table and rebuild it from every event, after a confirmation.
 * onRebuilt reloads what reads that table.
 */
export function RebuildProjection({ onRebuilt }: { onRebuilt: () => Promise<unknown> }) {
  const [name, setName] = useState<ProjectionName>('profiles');
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  async function onConfirm() {
    setPending(true);
    try {
      const result = await rebuildProjection(name);
      setOpen(false);
      toast({ title: result.message, description: `Done in ${result.ms} ms.`, variant: 'success' });
      await onRebuilt();
    } catch (error) {
      toast({
        title: 'Rebuild failed',
        description: serverMessage(error) ?? `Could not rebuild ${name}. Please try again.`,
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="staff-toolbar">
      <div className="field">
        <label className="field-label" htmlFor="staff-projection">
          Projection
        </label>
        <select
          id="staff-projection"
          className="input"
          value={name}
          onChange={(event) => setName(event.target.value as ProjectionName)}
        >
          {PROJECTIONS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <RefreshCw size={16} aria-hidden /> Rebuild projection
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => !pending && setOpen(next)}
        title="Rebuild projection"
        description={`The ${name} table is rebuilt from every event of every account, then swapped in. Readers keep the old table until then.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={pending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={onConfirm} busy={pending}>
              {pending ? 'Rebuilding...' : 'Rebuild'}
            </Button>
          </>
        }
      />
    </div>
  );
}
