import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { usePlans, type Plans } from '../api/get-plans';
import { formatCents } from '@/lib/format';
import { checkoutPath } from '@/config/paths';
import { creditChoiceSchema, creditsOf, type CreditChoice } from '../api/purchase-credits';

const FORM_ID = 'credit-choice';

/**
 * Pick a package or type a custom whole number of credits; choosing one
 * clears the other. Continues to /checkout?credits={n}, where the server
 * prices the purchase. The form lives inside the dialog's content, so
 * closing the dialog forgets the choice.
 */
export function CreditPurchaseDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const { data: plans, error: plansError, mutate: refetchPlans } = usePlans();

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Buy Credits"
      description="Choose a credit package or enter a custom amount. Purchased credits never expire."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form={FORM_ID} disabled={!plans}>
            Continue to Checkout
          </Button>
        </>
      }
    >
      {plans ? (
        <CreditChoiceForm
          plans={plans}
          onChosen={(credits) => {
            onOpenChange(false);
            navigate(checkoutPath(credits));
          }}
        />
      ) : plansError ? (
        <LoadError what="credit packages" onRetry={() => void refetchPlans()} />
      ) : (
        <Spinner label="Loading credit packages" />
      )}
    </Dialog>
  );
}

function CreditChoiceForm({ plans, onChosen }: { plans: Plans; onChosen: (credits: number) => void }) {
  const schema = useMemo(() => creditChoiceSchema(plans), [plans]);
  const { register, handleSubmit, setValue, clearErrors, watch, formState } = useForm<CreditChoice>({
    resolver: zodResolver(schema),
    defaultValues: { package: null, custom: '' },
  });
  const selected = watch('package');
  const customError = formState.errors.custom?.message;
  // Nothing chosen: said once, under the packages (issue 38: no toast
  // repeating what the form shows).
  const choiceError = formState.errors.package?.message;

  const onSubmit = handleSubmit((choice) => onChosen(creditsOf(choice)));

  return (
    <form id={FORM_ID} onSubmit={(event) => void onSubmit(event)} noValidate>
      <fieldset
        className="packages"
        aria-invalid={choiceError ? true : undefined}
        aria-describedby={choiceError ? 'credit-choice-error' : undefined}
      >
        <legend className="field-label">Credit packages</legend>
        {plans.packages.map((pkg) => (
          <label key={pkg.credits} className={selected === pkg.credits ? 'package selected' : 'package'}>
            <input
              type="radio"
              name="credit-package"
              value={pkg.credits}
              checked={selected === pkg.credits}
              onChange={() => {
                setValue('package', pkg.credits);
                setValue('custom', '');
                clearErrors();
              }}
            />
            <span className="package-credits">{pkg.credits.toLocaleString('en-US')} credits</span>
            <span className="package-price">{formatCents(pkg.priceCents)}</span>
          </label>
        ))}
      </fieldset>
      {choiceError && (
        <p id="credit-choice-error" className="field-error" role="alert">
          {choiceError}
        </p>
      )}
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
          aria-invalid={customError ? true : undefined}
          aria-describedby={customError ? 'custom-credits-hint custom-credits-error' : 'custom-credits-hint'}
          {...register('custom', {
            onChange: () => {
              setValue('package', null);
              clearErrors();
            },
          })}
        />
        {customError && (
          <p id="custom-credits-error" className="field-error" role="alert">
            {customError}
          </p>
        )}
        <p id="custom-credits-hint" className="field-hint">
          {formatCents(plans.customCreditPriceCents)} per credit, at least {plans.minCustomCredits} credits
        </p>
      </div>
    </form>
  );
}
