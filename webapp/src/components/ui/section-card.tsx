import { useId, type ReactNode } from 'react';
import { Card, CardHeader } from '@/components/ui/card';

/** A card named by its title, so it is a landmark region ("Timeline", "Balance"…). */
export function SectionCard({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card aria-labelledby={id}>
      <CardHeader title={<span id={id}>{title}</span>} description={description} action={action} />
      {children}
    </Card>
  );
}
