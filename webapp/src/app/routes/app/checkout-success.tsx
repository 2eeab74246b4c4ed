import { CheckCircle2 } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DEFAULT_BUY_MORE_CREDITS } from '@/features/credits/api/get-plans';
import { formatCents } from '@/lib/format';
import { checkoutPath, paths, readCheckoutSuccess } from '@/config/paths';

export default function CheckoutSuccessRoute() {
  const [params] = useSearchParams();
  const { amountCents, credits } = readCheckoutSuccess(params);
  return (
    <div className="page narrow">
      <Card className="result">
        <CheckCircle2 size={48} className="result-icon result-icon-success" aria-hidden />
        <h1 className="page-title">Payment Successful</h1>
        <p>
          {credits !== null ? `${credits.toLocaleString('en-US')} credits` : 'Your credits'}
          {amountCents !== null ? ` for ${formatCents(amountCents)}` : ''} have been added to your account.
        </p>
        <div className="actions center">
          <ButtonLink to={paths.dashboard}>Go to Dashboard</ButtonLink>
          <ButtonLink to={checkoutPath(DEFAULT_BUY_MORE_CREDITS)} variant="outline">
            Buy More Credits
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
