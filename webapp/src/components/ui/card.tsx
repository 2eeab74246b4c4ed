import type { HTMLAttributes, ReactNode } from 'react';

export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={['card', className].filter(Boolean).join(' ')} {...rest} />;
}

export function CardHeader({
  title,
  description,
  action,
  level = 2,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  level?: 1 | 2 | 3;
}) {
  const Heading = `h${level}` as const;
  return (
    <header className="card-header">
      <div>
        <Heading className="card-title">{title}</Heading>
        {description && <p className="card-description">{description}</p>}
      </div>
      {action}
    </header>
  );
}
