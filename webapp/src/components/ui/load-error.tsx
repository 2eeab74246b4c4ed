import { Button } from './button';

/**
 * What a screen shows instead of a spinner when its data could not be
 * loaded: what failed, and a Retry that fetches again.
 */
export function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      <h2 className="alert-title">Could not load {what}</h2>
      <p>Check your connection and try again.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
