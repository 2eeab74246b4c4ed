import { ChevronDown } from 'lucide-react';
import { initials } from '@/lib/format';

/** What the account menu's button shows: initials, email, chevron. */
export function UserTriggerFace({ email }: { email: string }) {
  return (
    <>
      {/* The initials are drawn by CSS: the button's visible text is the
          email alone, which its name contains (WCAG 2.5.3, label in name). */}
      <span className="avatar" data-initials={initials(email)} aria-hidden />
      <span className="user-email">{email}</span>
      <ChevronDown size={16} aria-hidden />
    </>
  );
}
