import { Badge } from '@/components/ui/badge';
import { capitalize } from '@/lib/format';

/** paid: success; pending: outline; anything else: destructive (spec section 4). */
export function TransactionStatusBadge({ status, otherLabel }: { status: string; otherLabel?: string }) {
  if (status === 'paid') return <Badge tone="success">Paid</Badge>;
  if (status === 'pending') return <Badge tone="outline">Pending</Badge>;
  return <Badge tone="danger">{otherLabel ?? capitalize(status || 'failed')}</Badge>;
}
