import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { useResetSandbox, useSandbox } from '../api/api-keys';

const number = new Intl.NumberFormat('en-US');

/** Test mode's sandbox: the test credits a2e_test_ keys spend, and a reset to 1,000. */
export function SandboxCard() {
  const { data, error, mutate } = useSandbox();
  const reset = useResetSandbox();
  const [pending, setPending] = useState(false);

  async function onReset() {
    setPending(true);
    try {
      await reset();
      toast({ title: 'Sandbox Reset', description: 'Your test keys have 1,000 test credits again.', variant: 'success' });
    } catch (e) {
      toast({ title: 'Error', description: serverMessage(e) ?? 'Failed to reset the sandbox.', variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <CardHeader
        title="Test Mode"
        description="Keys created in test mode (a2e_test_…) spend test credits from this sandbox, never your real credits. The desktop API guide lists test triggers that make the server answer 402, 429 or 503 on purpose."
        action={<FlaskConical size={20} aria-hidden />}
      />
      {!data && !error && <Spinner label="Loading the sandbox" />}
      {!data && error && <LoadError what="the sandbox" onRetry={() => void mutate()} />}
      {data && (
        <p aria-label="Test credits">
          <strong>{number.format(data.credits)}</strong> test credits left
        </p>
      )}
      <div className="actions">
        <Button variant="outline" onClick={onReset} busy={pending}>
          {pending ? 'Resetting...' : 'Reset to 1,000 test credits'}
        </Button>
      </div>
    </Card>
  );
}
