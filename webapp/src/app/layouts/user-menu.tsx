import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut } from 'lucide-react';
import { UserTriggerFace } from './user-trigger-face';

/**
 * The sidebar's account menu (Radix's dropdown menu, with Floating UI and
 * its focus and scroll management: 60 KB). app-layout.tsx loads it after
 * the layout's first paint (issue 38: the dashboard's first paint had
 * carried it), showing the same face, not yet a button, until it comes.
 */
export default function UserMenu({ email, onLogout }: { email: string; onLogout: () => void }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="user-trigger" aria-label={`Account menu for ${email}`}>
        <UserTriggerFace email={email} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Label className="menu-label">{email}</DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={onLogout}>
            <LogOut size={16} aria-hidden /> Log out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
