import { LogOut, Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { useMediaQuery } from '@/hooks/use-media-query';
import { PastDueBanner } from '@/features/subscription/components/past-due-banner';
import { useAuth } from '@/lib/auth';
import { initials } from '@/lib/format';
import { NAV_ITEMS, STAFF_NAV_ITEM } from './nav-items';
import { UserTriggerFace } from './user-trigger-face';
import { paths } from '@/config/paths';

// Loaded after the layout's first paint (user-menu.tsx), and only where the
// sidebar it sits in is shown (from 1024 px, styles/index.css): a phone,
// whose mobile menu has its own Log out, never loads Radix's dropdown menu
// and Floating UI (issue 38: the dashboard's mobile score). Until it
// comes, its face alone, hidden from assistive technology and not
// focusable, so that no one presses a button that does nothing.
const UserMenu = lazy(() => import('./user-menu'));
const SIDEBAR_SHOWN = '(min-width: 1024px)';

function UserMenuPlaceholder({ email }: { email: string }) {
  return (
    <span className="user-trigger" aria-hidden>
      <UserTriggerFace email={email} />
    </span>
  );
}

/** Signed-in layout: desktop sidebar, mobile collapsible menu and bottom bar; the past-due banner above every page. */
export default function AppLayout() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const sidebarShown = useMediaQuery(SIDEBAR_SHOWN);
  const email = user?.email ?? '';
  const navItems = user?.isStaff ? [...NAV_ITEMS, STAFF_NAV_ITEM] : NAV_ITEMS;

  useEffect(() => setMenuOpen(false), [location.pathname]);

  async function onLogout() {
    const result = await signOut();
    if (result.success) navigate(paths.home, { replace: true });
  }

  const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link active' : 'nav-link');

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar" aria-label="Sidebar">
        <div className="sidebar-logo">
          <Logo to={paths.dashboard} tone="light" />
        </div>
        <nav aria-label="Main">
          <ul className="nav-list">
            {navItems.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink to={to} className={navClass}>
                  <Icon size={18} aria-hidden /> {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="sidebar-user">
          {sidebarShown ? (
            <Suspense fallback={<UserMenuPlaceholder email={email} />}>
              <UserMenu email={email} onLogout={onLogout} />
            </Suspense>
          ) : (
            <UserMenuPlaceholder email={email} />
          )}
        </div>
      </aside>

      <header className="mobile-header">
        <Logo to={paths.dashboard} size="small" />
        <button
          type="button"
          className="icon-button"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X size={22} aria-hidden /> : <Menu size={22} aria-hidden />}
        </button>
      </header>
      {menuOpen && (
        <nav id="mobile-menu" className="mobile-menu" aria-label="Mobile">
          <ul className="nav-list">
            {navItems.map(({ to, label, mobileLabel, icon: Icon }) => (
              <li key={to}>
                <NavLink to={to} className={navClass}>
                  <Icon size={18} aria-hidden /> {mobileLabel ?? label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mobile-user">
            <span className="avatar" aria-hidden>
              {initials(email)}
            </span>
            <span className="user-email">{email}</span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={onLogout}>
              <LogOut size={16} aria-hidden /> Log out
            </button>
          </div>
        </nav>
      )}

      <main className="app-main" id="main" tabIndex={-1}>
        <PastDueBanner />
        <Outlet />
      </main>

      <nav className="bottom-bar" aria-label="Quick">
        {NAV_ITEMS.filter((item) => item.bottomLabel).map(({ to, bottomLabel, icon: Icon }) => (
          <NavLink key={to} to={to} className={({ isActive }) => (isActive ? 'bottom-link active' : 'bottom-link')}>
            <Icon size={20} aria-hidden />
            <span>{bottomLabel}</span>
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
