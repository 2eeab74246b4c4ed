import { Badge, type BadgeTone } from '@/components/ui/badge';
import { normalizeStatus } from '@/lib/auth-api/get-profile';
import { BILLING_DATE_FORMAT, formatDate } from '@/lib/dates';

const LOOK = {
  active: { label: 'Active', tone: 'success' },
  cancelling: { label: 'Cancelling', tone: 'info' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
  past_due: { label: 'Past Due', tone: 'danger' },
  inactive: { label: 'Inactive', tone: 'warning' },
} as const satisfies Record<string, { label: string; tone: BadgeTone }>;

/**
 * Active green, Cancelled grey, Past Due red, Inactive yellow (spec section
 * 4). A subscription cancelled at the end of its period reads "Active until
 * <date>" (blue) with `endsAt`, "Cancelling" without it.
 */
export function SubscriptionStatusBadge({ status, endsAt }: { status: string | null | undefined; endsAt?: string | null }) {
  const normalized = normalizeStatus(status);
  const look = LOOK[normalized];
  const label = normalized === 'cancelling' && endsAt ? `Active until ${formatDate(endsAt, BILLING_DATE_FORMAT)}` : look.label;
  return <Badge tone={look.tone}>{label}</Badge>;
}
