import { CreditCard, Download, GraduationCap, Key, LayoutDashboard, LifeBuoy, ShieldCheck, Webhook, type LucideIcon } from 'lucide-react';
import { paths } from '@/config/paths';

export type NavItem = { to: string; label: string; mobileLabel?: string; icon: LucideIcon; bottomLabel?: string };

/** Spec section 2: the signed-in navigation. */
export const NAV_ITEMS: NavItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard, bottomLabel: 'Dashboard' },
  { to: paths.subscription, label: 'Subscription', icon: CreditCard, bottomLabel: 'Subscription' },
  { to: paths.apiKeys, label: 'API Keys', icon: Key, bottomLabel: 'API Keys' },
  { to: paths.tutorials, label: 'Tutorials', mobileLabel: 'Usage History', icon: GraduationCap },
  { to: paths.webhooks, label: 'Webhooks', icon: Webhook },
  { to: paths.download, label: 'Download Software', icon: Download, bottomLabel: 'Download' },
  { to: paths.support, label: 'Support', icon: LifeBuoy },
];

/** Shown after NAV_ITEMS to support staff only. */
export const STAFF_NAV_ITEM: NavItem = { to: paths.staff, label: 'Staff console', icon: ShieldCheck };
