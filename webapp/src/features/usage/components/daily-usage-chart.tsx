import { useId, useState, type KeyboardEvent } from 'react';
import { Download } from 'lucide-react';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { AXIS_DATE_FORMAT, formatDate } from '@/lib/dates';
import { liveRefresh } from '@/lib/swr-config';
import { lastDays, usageDailyCsvUrl, useKeyChoices, useUsageDaily, type UsageDay } from '../api/get-usage-daily';
import './daily-usage-chart.css';

/** The chart covers the last 30 UTC days, today included. */
export const CHART_DAYS = 30;

const number = new Intl.NumberFormat('en-US');
const plural = (n: number, one: string, many: string) => `${number.format(n)} ${n === 1 ? one : many}`;

/** What one day reads as, in the readout and to screen readers. */
export function describeDay(d: UsageDay): string {
  return [
    formatDate(d.date),
    `${plural(d.credits, 'credit', 'credits')} used`,
    plural(d.listings, 'listing', 'listings'),
    plural(d.veroChecks, 'VeRO check', 'VeRO checks'),
    `${plural(d.refunded, 'credit', 'credits')} refunded`,
  ].join(', ');
}

const W = 600;
const H = 160;
const PAD_TOP = 16;
const PAD_BOTTOM = 20;

/** Credits used per day as bars: an SVG drawn here, no chart library. */
function Bars({
  days,
  selected,
  onSelect,
  titleId,
}: {
  days: UsageDay[];
  selected: number;
  onSelect: (i: number) => void;
  titleId: string;
}) {
  const max = Math.max(1, ...days.map((d) => d.credits));
  const slot = W / days.length;
  const plot = H - PAD_TOP - PAD_BOTTOM;
  const total = days.reduce((s, d) => s + d.credits, 0);
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const next = { ArrowLeft: selected - 1, ArrowRight: selected + 1, Home: 0, End: days.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    onSelect(Math.min(days.length - 1, Math.max(0, next)));
  };
  return (
    <svg
      className="daily-usage-svg"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={`${titleId}-readout`}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <title id={titleId}>
        {`Credits used per day, ${formatDate(days[0].date)} to ${formatDate(days[days.length - 1].date)}: ${plural(total, 'credit', 'credits')} in all, at most ${number.format(max)} a day. Use the left and right arrow keys to read each day.`}
      </title>
      <line className="daily-usage-axis" x1={0} x2={W} y1={H - PAD_BOTTOM} y2={H - PAD_BOTTOM} />
      {days.map((d, i) => {
        const h = (d.credits / max) * plot;
        return (
          <rect
            key={d.date}
            data-date={d.date}
            data-credits={d.credits}
            className={i === selected ? 'daily-usage-bar is-selected' : 'daily-usage-bar'}
            x={i * slot + slot * 0.15}
            width={slot * 0.7}
            y={H - PAD_BOTTOM - Math.max(h, d.credits > 0 ? 1 : 0)}
            height={Math.max(h, d.credits > 0 ? 1 : 0)}
            onMouseEnter={() => onSelect(i)}
            onClick={() => onSelect(i)}
          />
        );
      })}
      <text className="daily-usage-label" x={0} y={H - 4}>
        {formatDate(days[0].date, AXIS_DATE_FORMAT)}
      </text>
      <text className="daily-usage-label" x={W} y={H - 4} textAnchor="end">
        {formatDate(days[days.length - 1].date, AXIS_DATE_FORMAT)}
      </text>
      <text className="daily-usage-label" x={W} y={PAD_TOP - 4} textAnchor="end">
        {number.format(max)}
      </text>
    </svg>
  );
}

/** The days as a table: the chart's alternative for screen readers and keyboards. */
function DaysTable({ days }: { days: UsageDay[] }) {
  return (
    <div className="table-wrap" role="region" aria-label="Daily usage table" tabIndex={0}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col" className="num">
              Credits used
            </th>
            <th scope="col" className="num">
              Listings
            </th>
            <th scope="col" className="num">
              VeRO checks
            </th>
            <th scope="col" className="num">
              Refunded
            </th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{formatDate(d.date)}</th>
              <td className="num">{number.format(d.credits)}</td>
              <td className="num">{number.format(d.listings)}</td>
              <td className="num">{number.format(d.veroChecks)}</td>
              <td className="num">{number.format(d.refunded)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Usage per UTC day over the last 30 days: a bar chart of credits used
 * (arrow keys walk the days, each read out), the same days as a table, and
 * their CSV. `live` follows the desktop client's spends without a reload.
 */
export function DailyUsageCard({ live = false, now }: { live?: boolean; now?: Date }) {
  const [days30] = useState(() => lastDays(CHART_DAYS, now));
  const [key, setKey] = useState('');
  const keys = useKeyChoices();
  const range = key ? { ...days30, key } : days30;
  const { data, error, mutate } = useUsageDaily(range, live ? liveRefresh : undefined);
  const keyPickerId = useId();
  const [picked, setPicked] = useState<number | null>(null);
  const titleId = useId();
  const days = data?.days ?? [];
  const selected = picked ?? days.length - 1;
  return (
    <Card>
      <CardHeader title="Daily Usage" description={`Credits used per day over the last ${CHART_DAYS} days (UTC).`} />
      {keys.length > 1 && (
        <div className="daily-usage-key">
          <label htmlFor={keyPickerId}>API key</label>
          <select id={keyPickerId} className="input" value={key} onChange={(e) => setKey(e.target.value)}>
            <option value="">All keys</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…)
              </option>
            ))}
          </select>
        </div>
      )}
      {!data && !error && <Spinner label="Loading daily usage" />}
      {!data && error && <LoadError what="daily usage" onRetry={() => void mutate()} />}
      {days.length > 0 && (
        <>
          <figure className="daily-usage-figure">
            <Bars days={days} selected={selected} onSelect={setPicked} titleId={titleId} />
            <p id={`${titleId}-readout`} className="daily-usage-readout" aria-live="polite">
              {describeDay(days[selected])}
            </p>
          </figure>
          <div className="daily-usage-actions">
            <details>
              <summary>Show as a table</summary>
              <DaysTable days={days} />
            </details>
            <a className="btn btn-outline btn-sm" href={usageDailyCsvUrl(range)} download>
              <Download size={16} aria-hidden /> Download CSV
            </a>
          </div>
        </>
      )}
    </Card>
  );
}
