import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { usePlans } from '@/features/plans/api/get-plans';
import { formatCents } from '@/lib/format';

/**
 * Pick a package or type a custom whole number of credits; choosing one
 * clears the other. Continues to /checkout?credits={n}.
 */
export function CreditPurchaseDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const { data: plans } = usePlans();
  const [selected, setSelected] = useState<number | null>(null);
  const [custom, setCustom] = useState('');

  function reset() {
    setSelected(null);
    setCustom('');
  }

  function onContinue() {
    const amount = selected ?? (/^\d+$/.test(custom.trim()) ? Number(custom.trim()) : 0);
    if (!(amount > 0)) {
      toast({
        title: 'Invalid Amount',
        description: 'Please select a package or enter a valid amount.',
        variant: 'destructive',
      });
      return;
    }
    onOpenChange(false);
    reset();
    navigate(`/checkout?credits=${amount}`);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title="Buy Credits"
      description="Choose a credit package or enter a custom amount. Purchased credits never expire."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={onContinue}>Continue to Checkout</Button>
        </>
      }
    >
      {!plans ? (
        <Spinner label="Loading credit packages" />
      ) : (
        <>
          <fieldset className="packages">
            <legend className="field-label">Credit packages</legend>
            {plans.packages.map((pkg) => (
              <label key={pkg.credits} className={selected === pkg.credits ? 'package selected' : 'package'}>
                <input
                  type="radio"
                  name="credit-package"
                  value={pkg.credits}
                  checked={selected === pkg.credits}
                  onChange={() => {
                    setSelected(pkg.credits);
                    setCustom('');
                  }}
                />
                <span className="package-credits">{pkg.credits.toLocaleString('en-US')} credits</span>
                <span className="package-price">{formatCents(pkg.priceCents)}</span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label className="field-label" htmlFor="custom-credits">
              Custom amount (credits)
            </label>
            <input
              id="custom-credits"
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={plans.maxCustomCredits}
              step={1}
              value={custom}
              onChange={(event) => {
                setCustom(event.target.value);
                setSelected(null);
              }}
            />
            <p className="field-hint">
              {formatCents(plans.customCreditPriceCents)} per credit
              {/^\d+$/.test(custom.trim()) && Number(custom) > 0
                ? ` — total ${formatCents(Number(custom) * plans.customCreditPriceCents)}`
                : ''}
            </p>
          </div>
        </>
      )}
    </Dialog>
  );
}
