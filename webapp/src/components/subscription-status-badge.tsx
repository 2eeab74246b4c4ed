import { Badge, type BadgeTone } from '@/components/ui/badge';
import { normalizeStatus } from '@/lib/profile';

const LOOK = {
  active: { label: 'Active', tone: 'success' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
  past_due: { label: 'Past Due', tone: 'danger' },
  inactive: { label: 'Inactive', tone: 'warning' },
} as const satisfies Record<string, { label: string; tone: BadgeTone }>;

/** Active green, Cancelled grey, Past Due red, Inactive yellow (spec section 4). */
export function SubscriptionStatusBadge({ status }: { status: string | null | undefined }) {
  const look = LOOK[normalizeStatus(status)];
  return <Badge tone={look.tone}>{look.label}</Badge>;
}
