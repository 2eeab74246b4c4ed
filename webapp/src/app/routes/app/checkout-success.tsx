import { CheckCircle2 } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DEFAULT_BUY_MORE_CREDITS } from '@/features/credits/api/get-plans';
import { dollarsToCents, formatCents } from '@/lib/format';
import { checkoutPath, paths } from '@/config/paths';

export default function CheckoutSuccessRoute() {
  const [params] = useSearchParams();
  const credits = Number(params.get('credits'));
  const amountCents = dollarsToCents(params.get('amount'));
  return (
    <div className="page narrow">
      <Card className="result">
        <CheckCircle2 size={48} className="result-icon result-icon-success" aria-hidden />
        <h1 className="page-title">Payment Successful</h1>
        <p>
          {Number.isFinite(credits) && credits > 0 ? `${credits.toLocaleString('en-US')} credits` : 'Your credits'}
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
