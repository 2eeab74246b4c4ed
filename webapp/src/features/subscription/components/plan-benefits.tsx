import { Check } from 'lucide-react';

/** Spec section 2: the subscription's benefits. */
export function PlanBenefits({ credits }: { credits: number }) {
  const benefits = [
    `${credits.toLocaleString('en-US')} credits per month`,
    'Full software access',
    'API access',
    'Priority email support',
    'Regular updates',
  ];
  return (
    <ul className="check-list">
      {benefits.map((benefit) => (
        <li key={benefit}>
          <Check size={16} aria-hidden className="check" /> {benefit}
        </li>
      ))}
    </ul>
  );
}
