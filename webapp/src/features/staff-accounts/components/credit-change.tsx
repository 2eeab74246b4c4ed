import { formatCreditChange } from '../utils/format';

/** A signed credit change: green when credits came in, red when they went out. */
export function CreditChange({ value }: { value: number }) {
  const tone = value > 0 ? 'credit-in' : value < 0 ? 'credit-out' : 'muted';
  return <span className={tone}>{formatCreditChange(value)}</span>;
}
