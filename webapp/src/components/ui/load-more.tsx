import { Button } from '@/components/ui/button';

/** "Load more" under a paged list, shown while the server has a next page. */
export function LoadMore({ show, busy, onLoad }: { show: boolean; busy: boolean; onLoad: () => void }) {
  if (!show) return null;
  return (
    <div className="load-more">
      <Button variant="outline" busy={busy} onClick={onLoad}>
        Load more
      </Button>
    </div>
  );
}
