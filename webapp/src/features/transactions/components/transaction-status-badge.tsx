import { Badge, type BadgeTone } from '@/components/ui/badge';
import { capitalize } from '@/lib/format';

/**
 * paid: success; pending: outline (spec section 4); then what a paid
 * payment can become (refunded, disputed, charged back) and a payment held
 * for staff (under review). Any other status is destructive, labelled
 * `otherLabel` ("Failed" on /transactions) or the status capitalised.
 */
const LOOK: Record<string, { label: string; tone: BadgeTone }> = {
  paid: { label: 'Paid', tone: 'success' },
  pending: { label: 'Pending', tone: 'outline' },
  failed: { label: 'Failed', tone: 'danger' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  partially_refunded: { label: 'Partially Refunded', tone: 'neutral' },
  disputed: { label: 'Disputed', tone: 'warning' },
  chargeback: { label: 'Charged Back', tone: 'danger' },
  needs_review: { label: 'Under Review', tone: 'info' },
};

function transactionStatusLabel(status: string, otherLabel?: string): string {
  return Object.hasOwn(LOOK, status) ? LOOK[status].label : (otherLabel ?? capitalize(status || 'failed'));
}

export function TransactionStatusBadge({ status, otherLabel }: { status: string; otherLabel?: string }) {
  const tone = Object.hasOwn(LOOK, status) ? LOOK[status].tone : 'danger';
  return <Badge tone={tone}>{transactionStatusLabel(status, otherLabel)}</Badge>;
}
