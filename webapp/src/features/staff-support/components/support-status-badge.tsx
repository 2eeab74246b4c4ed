import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { SupportStatus } from '../api/get-support-inbox';

const LOOK: Record<SupportStatus, { label: string; tone: BadgeTone }> = {
  open: { label: 'Open', tone: 'warning' },
  answered: { label: 'Answered', tone: 'success' },
  closed: { label: 'Closed', tone: 'neutral' },
};

export function SupportStatusBadge({ status }: { status: SupportStatus }) {
  return <Badge tone={LOOK[status].tone}>{LOOK[status].label}</Badge>;
}
