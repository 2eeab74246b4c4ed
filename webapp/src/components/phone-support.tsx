import { Phone } from 'lucide-react';
import { telHref } from '@/lib/app-config';

/** Phone support (spec: Monday-Friday 9am-5pm EST) at the operator's SUPPORT_PHONE. */
export function PhoneSupport({ phone }: { phone: string }) {
  return (
    <>
      <Phone size={18} aria-hidden /> Phone support{' '}
      <a className="link" href={telHref(phone)}>
        {phone}
      </a>
      , Monday-Friday 9am-5pm EST
    </>
  );
}
