import { Link } from 'react-router';
import { useProductName } from '@/lib/app-config';
import { paths } from '@/config/paths';

const SIZES = { small: 24, medium: 32, large: 40 } as const;

export type LogoSize = keyof typeof SIZES;

/** The brand logo: image and product name, linking to a path (default /). */
export function Logo({
  size = 'medium',
  to = paths.home,
  tone = 'dark',
}: {
  size?: LogoSize;
  to?: string;
  /** 'light' for dark backgrounds. */
  tone?: 'dark' | 'light';
}) {
  const px = SIZES[size];
  const productName = useProductName();
  return (
    <Link to={to} className={`logo logo-${size} logo-${tone}`}>
      <img src="/logo.svg" alt="the product logo" width={px} height={px} />
      <span className="logo-name">{productName}</span>
    </Link>
  );
}
