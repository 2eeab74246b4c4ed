import { CheckCircle2 } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';

export default function SubscribeSuccessRoute() {
  return (
    <div className="page narrow">
      <Card className="result">
        <CheckCircle2 size={48} className="result-icon result-icon-success" aria-hidden />
        <h1 className="page-title">Subscription Successful</h1>
        <p>You are now subscribed. Your monthly credits are ready to use.</p>
        <div className="actions center">
          <ButtonLink to={paths.dashboard}>Go to Dashboard</ButtonLink>
        </div>
      </Card>
    </div>
  );
}
