import { useAppConfig } from '@/lib/app-config';
import { formatBytes } from '@/lib/format';

/**
 * The Windows installer's version and size, as the server reads them from
 * the file it serves (DOWNLOADS_DIR); `prefix` is "v" or "Version ".
 */
export function InstallerVersion({ prefix }: { prefix: string }) {
  const { data: config, error, mutate } = useAppConfig();
  if (!config && error) {
    return (
      <span className="muted">
        Version unavailable.{' '}
        <button type="button" className="link-button" onClick={() => void mutate()}>
          Retry
        </button>
      </span>
    );
  }
  if (!config) return <span className="muted">Loading version…</span>;
  const installer = config.installer;
  if (!installer) return <span className="muted">Not available right now</span>;
  return (
    <span className="muted">
      {prefix}
      {installer.version} · {formatBytes(installer.sizeBytes)}
    </span>
  );
}

/** The installer's SHA-256, for sellers who check what they downloaded. */
export function InstallerChecksum() {
  const installer = useAppConfig().data?.installer;
  if (!installer) return null;
  return (
    <p className="checksum">
      <span className="muted">{installer.fileName} SHA-256:</span> <code>{installer.sha256}</code>
    </p>
  );
}
