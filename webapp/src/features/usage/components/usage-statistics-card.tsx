import { Card, CardHeader } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { creditsUsedPercent } from '../utils/credits-used';
import { formatDate } from '@/lib/dates';
import { liveRefresh } from '@/lib/swr-config';
import { useUsageStatistics } from '../api/get-usage-statistics';

const number = new Intl.NumberFormat('en-US');

/**
 * The usage table with the figures the API returns, and the credits-used bar;
 * `live` follows the desktop client's spends without a reload. `lastSpendAt`
 * (the profile's) dates the last spend under the bar.
 */
export function UsageStatisticsCard({ live = false, lastSpendAt }: { live?: boolean; lastSpendAt?: string | null }) {
  const { data, error, mutate } = useUsageStatistics(live ? liveRefresh : undefined);
  const percent = creditsUsedPercent(data?.creditsUsed ?? 0);
  const unused = data !== undefined && data.rows.every((row) => row.total === 0);
  return (
    <Card>
      <CardHeader title="Usage Statistics" description="Your activity across the platform." />
      {!data && !error && <Spinner label="Loading usage statistics" />}
      {!data && error && <LoadError what="usage statistics" onRetry={() => void mutate()} />}
      {unused && (
        <p className="empty">No activity yet. Requests from the desktop software and your API key will show here.</p>
      )}
      {data && (
        <>
          <div className="usage-bar">
            <div className="usage-bar-label">
              <span>Credits used this month</span>
              <span>
                {number.format(data.creditsUsed)} ({percent}%)
              </span>
            </div>
            <Progress value={percent} label="Credits used this month" />
          </div>
          {lastSpendAt && <p className="muted">Last credit spent: {formatDate(lastSpendAt)}</p>}
          <div className="table-wrap" role="region" aria-label="Usage statistics table" tabIndex={0}>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Metric</th>
                  <th scope="col" className="num">
                    Today
                  </th>
                  <th scope="col" className="num">
                    This Week
                  </th>
                  <th scope="col" className="num">
                    This Month
                  </th>
                  <th scope="col" className="num">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr key={row.metric}>
                    <th scope="row">{row.metric}</th>
                    <td className="num">{number.format(row.today)}</td>
                    <td className="num">{number.format(row.thisWeek)}</td>
                    <td className="num">{number.format(row.thisMonth)}</td>
                    <td className="num">{number.format(row.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Card>
  );
}
