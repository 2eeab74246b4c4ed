import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { dismissToast, TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, useToasts } from './toast-store';

/** Renders the toast store with Radix Toast; F8 focuses the region. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      swipeDirection="right"
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={`toast toast-${t.variant ?? 'default'}`}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
        >
          <div className="toast-text">
            <ToastPrimitive.Title className="toast-title">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="toast-description">
                {t.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close className="toast-close" aria-label="Close">
            <X size={16} aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" hotkey={['F8']} label="Notifications ({hotkey})" />
    </ToastPrimitive.Provider>
  );
}
