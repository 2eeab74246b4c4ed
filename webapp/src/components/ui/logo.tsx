import { Link } from 'react-router';
import { PRODUCT_NAME } from '@/lib/constants';

const SIZES = { small: 24, medium: 32, large: 40 } as const;

export type LogoSize = keyof typeof SIZES;

/** The brand logo: image and product name, linking to a path (default /). */
export function Logo({
  size = 'medium',
  to = '/',
  tone = 'dark',
}: {
  size?: LogoSize;
  to?: string;
  /** 'light' for dark backgrounds. */
  tone?: 'dark' | 'light';
}) {
  const px = SIZES[size];
  return (
    <Link to={to} className={`logo logo-${size} logo-${tone}`}>
      <img src="/logo.svg" alt="the product logo" width={px} height={px} />
      <span className="logo-name">{PRODUCT_NAME}</span>
    </Link>
  );
}
