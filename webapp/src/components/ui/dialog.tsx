import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useRef, type ReactNode } from 'react';

/**
 * A modal dialog (Radix: focus trap, Escape closes, labelled by its title).
 * Opened from state rather than a Radix Trigger, so it remembers what had
 * the focus when it opened (the button that opened it) and gives the focus
 * back there when it closes, rather than to <body>.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  const returnFocusTo = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="dialog-overlay" />
        <DialogPrimitive.Content
          className="dialog-content"
          onOpenAutoFocus={() => {
            returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const trigger = returnFocusTo.current;
            if (trigger?.isConnected && trigger !== document.body) {
              event.preventDefault();
              trigger.focus();
            }
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <DialogPrimitive.Title className="dialog-title">{title}</DialogPrimitive.Title>
          {description && (
            <DialogPrimitive.Description className="dialog-description">{description}</DialogPrimitive.Description>
          )}
          {children}
          {footer && <div className="dialog-footer">{footer}</div>}
          <DialogPrimitive.Close className="dialog-close" aria-label="Close">
            <X size={18} aria-hidden />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
