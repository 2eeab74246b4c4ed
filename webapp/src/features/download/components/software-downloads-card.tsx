import { Apple, Monitor } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { MacDownloadButton, WindowsDownloadButton } from './download-buttons';
import { InstallerVersion } from './installer-version';
import { MAC_REQUIREMENT } from './software-info';
import { paths } from '@/config/paths';

/** The dashboard's Software Downloads card. */
export function SoftwareDownloadsCard({ active }: { active: boolean }) {
  return (
    <Card>
      <CardHeader
        title="Software Downloads"
        description="Desktop software for automated listings."
        action={
          <Link to={paths.download} className="link">
            Details
          </Link>
        }
      />
      <ul className="download-list">
        <li>
          <Monitor size={28} aria-hidden />
          <div className="download-meta">
            <strong>Windows</strong> <Badge tone="success">Latest</Badge>
            <InstallerVersion prefix="v" />
          </div>
          <WindowsDownloadButton active={active} />
        </li>
        <li>
          <Apple size={28} aria-hidden />
          <div className="download-meta">
            <strong>Mac</strong>
            <span className="muted">{MAC_REQUIREMENT}</span>
          </div>
          <MacDownloadButton />
        </li>
      </ul>
    </Card>
  );
}
