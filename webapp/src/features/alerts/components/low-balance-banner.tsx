import type { Profile } from '@/lib/auth-api/get-profile';
import { useAlertSettings } from '../api/alert-settings';

/**
 * The low-balance banner (issue 33): shown while the server says a
 * low-balance alert stands (profile.lowBalance); it goes when the balance
 * recovers above the threshold, which the dashboard's live profile follows.
 */
export function LowBalanceBanner({ profile }: { profile: Profile }) {
  const { data } = useAlertSettings();
  if (!profile.lowBalance) return null;
  const left = profile.creditsAvailable.toLocaleString('en-US');
  const threshold = data?.lowBalanceCredits;
  return (
    <div className="alert alert-warning" role="note" aria-label="Low balance">
      <p>
        Your credits are running low: {left} {profile.creditsAvailable === 1 ? 'credit' : 'credits'} left
        {threshold != null ? `, below your alert at ${threshold.toLocaleString('en-US')}` : ''}. When they run out, the
        desktop software stops until you buy more.
      </p>
    </div>
  );
}
