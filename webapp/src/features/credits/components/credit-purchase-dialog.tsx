import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { customAmountProblem, priceForCredits, usePlans } from '@/lib/plans';
import { formatCents } from '@/lib/format';
import { checkoutPath } from '@/config/paths';

/**
 * Pick a package or type a custom whole number of credits; choosing one
 * clears the other. Continues to /checkout?credits={n}.
 */
export function CreditPurchaseDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const { data: plans, error: plansError, mutate: refetchPlans } = usePlans();
  const [selected, setSelected] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [customError, setCustomError] = useState<string | null>(null);

  function reset() {
    setSelected(null);
    setCustom('');
    setCustomError(null);
  }

  function onContinue() {
    if (!plans) return;
    const amount = selected ?? (/^\d+$/.test(custom.trim()) ? Number(custom.trim()) : 0);
    const problem = selected === null ? customAmountProblem(plans, amount) : null;
    if (problem) {
      if (custom.trim() !== '') setCustomError(problem);
      toast({ title: 'Invalid Amount', description: problem, variant: 'destructive' });
      return;
    }
    onOpenChange(false);
    reset();
    navigate(checkoutPath(amount));
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
          <Button onClick={onContinue} disabled={!plans}>
            Continue to Checkout
          </Button>
        </>
      }
    >
      {!plans ? (
        plansError ? (
          <LoadError what="credit packages" onRetry={() => void refetchPlans()} />
        ) : (
          <Spinner label="Loading credit packages" />
        )
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
                    setCustomError(null);
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
              min={plans.minCustomCredits}
              max={plans.maxCustomCredits}
              step={1}
              value={custom}
              aria-invalid={customError ? true : undefined}
              aria-describedby={customError ? 'custom-credits-hint custom-credits-error' : 'custom-credits-hint'}
              onChange={(event) => {
                setCustom(event.target.value);
                setSelected(null);
                setCustomError(null);
              }}
            />
            {customError && (
              <p id="custom-credits-error" className="field-error" role="alert">
                {customError}
              </p>
            )}
            <p id="custom-credits-hint" className="field-hint">
              {formatCents(plans.customCreditPriceCents)} per credit, at least {plans.minCustomCredits} credits
              {/^\d+$/.test(custom.trim()) && Number(custom) > 0
                ? ` — total ${formatCents(priceForCredits(plans, Number(custom)))}`
                : ''}
            </p>
          </div>
        </>
      )}
    </Dialog>
  );
}
