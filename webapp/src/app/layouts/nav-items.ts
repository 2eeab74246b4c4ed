import { CreditCard, Download, GraduationCap, Key, LayoutDashboard, LifeBuoy, ShieldCheck, type LucideIcon } from 'lucide-react';

export type NavItem = { to: string; label: string; mobileLabel?: string; icon: LucideIcon; bottomLabel?: string };

/** Spec section 2: the signed-in navigation. */
export const NAV_ITEMS: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard, bottomLabel: 'Dashboard' },
  { to: '/subscription', label: 'Subscription', icon: CreditCard, bottomLabel: 'Subscription' },
  { to: '/api-keys', label: 'API Keys', icon: Key, bottomLabel: 'API Keys' },
  { to: '/usage-history', label: 'Tutorials', mobileLabel: 'Usage History', icon: GraduationCap },
  { to: '/download', label: 'Download Software', icon: Download, bottomLabel: 'Download' },
  { to: '/support', label: 'Support', icon: LifeBuoy },
];

/** Shown after NAV_ITEMS to support staff only. */
export const STAFF_NAV_ITEM: NavItem = { to: '/staff', label: 'Staff console', icon: ShieldCheck };
