import { Check } from 'lucide-react';

/**
 * Spec section 2: the subscription's benefits, as the server's plan lists
 * them (GET /api/plans), so the page says what the plan gives.
 */
export function PlanBenefits({ features }: { features: string[] }) {
  return (
    <ul className="check-list">
      {features.map((benefit) => (
        <li key={benefit}>
          <Check size={16} aria-hidden className="check" /> {benefit}
        </li>
      ))}
    </ul>
  );
}
