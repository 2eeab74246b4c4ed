import { SectionCard } from '@/components/ui/section-card';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import { formatCents } from '@/lib/format';
import type { AccountSettings } from '../api/get-account';

const credits = (n: number | null) => (n === null ? 'none' : `${n.toLocaleString('en-US')} credits`);

/** The seller's spend limits, balance alerts and auto-recharge as they stand, and their history (issue 33). */
export function SettingsCard({ settings }: { settings?: AccountSettings }) {
  if (!settings) return null;
  const { spendLimits, alerts, autoRecharge: ar, history } = settings;
  return (
    <SectionCard title="Limits, alerts and auto-recharge" description="The seller's own settings, from the account's events.">
      <dl className="staff-standing" aria-label="Settings now">
        <div>
          <dt>Spend limits</dt>
          <dd>
            daily {credits(spendLimits.dailyCredits)}, monthly {credits(spendLimits.monthlyCredits)}
          </dd>
        </div>
        <div>
          <dt>Alerts</dt>
          <dd>
            low balance below {credits(alerts.lowBalanceCredits)}; expiry reminder{' '}
            {alerts.expiringReminderDays === null ? 'off' : `${alerts.expiringReminderDays} days before`}
          </dd>
        </div>
        <div>
          <dt>Auto-recharge</dt>
          <dd>
            {ar.enabled ? 'on' : 'off'}
            {ar.disabledReason && ` (turned off: ${ar.disabledReason.replaceAll('_', ' ')})`}
            {ar.packCredits > 0 &&
              `: ${ar.packCredits.toLocaleString('en-US')} credits (${formatCents(ar.packAmountCents)}) below ${ar.thresholdCredits.toLocaleString('en-US')}, at most ${formatCents(ar.monthlyLimitCents)} a month; ${formatCents(ar.rechargedThisMonthCents)} this month`}
            {ar.paymentMethod ? `; card ${ar.paymentMethod.brand} ${ar.paymentMethod.last4}` : '; no card'}
          </dd>
        </div>
      </dl>
      {history.length > 0 && (
        <table className="table" aria-label="Settings history">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h, i) => (
              <tr key={i}>
                <td>{formatDate(h.at, TIME_TO_SECOND_FORMAT)}</td>
                <td>{h.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </SectionCard>
  );
}
