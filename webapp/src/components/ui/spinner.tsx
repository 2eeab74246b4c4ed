export function Spinner({ label = 'Loading', fullPage = false }: { label?: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? 'spinner-page' : 'spinner-wrap'} role="status" aria-label={label}>
      <span className="spinner" aria-hidden />
    </div>
  );
}
