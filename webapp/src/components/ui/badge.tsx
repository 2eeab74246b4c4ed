import type { ReactNode } from 'react';

export type BadgeTone = 'success' | 'neutral' | 'danger' | 'warning' | 'outline' | 'info';

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
