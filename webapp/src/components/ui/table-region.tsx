import { useId, useRef, type ReactNode } from 'react';
import { useSidewaysOverflow } from '@/hooks/use-sideways-overflow';

/**
 * A table's named, focusable scroll region (.table-wrap): a table wider than
 * the screen scrolls inside it, with the shadows on the side that has more
 * and, while it does not fit, a line saying so above it.
 */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const overflows = useSidewaysOverflow(ref);
  const hintId = useId();
  return (
    <>
      {overflows && (
        <p className="table-hint" id={hintId}>
          Scroll sideways for every column →
        </p>
      )}
      <div
        ref={ref}
        className="table-wrap"
        role="region"
        aria-label={label}
        aria-describedby={overflows ? hintId : undefined}
        tabIndex={0}
      >
        {children}
      </div>
    </>
  );
}
