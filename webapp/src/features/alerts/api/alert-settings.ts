import useSWR, { useSWRConfig } from 'swr';
import { accountKeys, useRefetchAccount } from '@/lib/account-data';
import { api } from '@/lib/api-client';

/** GET/PUT /api/account/alerts (issue 33): null turns an alert off. */
export type AlertSettings = { lowBalanceCredits: number | null; expiringReminderDays: number | null };

export const alertSettingsKey = '/api/account/alerts';

export const getAlertSettings = () => api.get<AlertSettings>(alertSettingsKey);

export function useAlertSettings() {
  return useSWR<AlertSettings>(alertSettingsKey, getAlertSettings);
}

/** The server's bounds (domain/alerts.go). */
export const MAX_LOW_BALANCE_CREDITS = 10_000_000;
export const MIN_REMINDER_DAYS = 1;
export const MAX_REMINDER_DAYS = 30;

/** The form's fields as typed: blank turns an alert off. */
export type AlertSettingsInput = { lowBalanceCredits: string; expiringReminderDays: string };

/** The settings a valid form saves. */
export function settingsOf(input: AlertSettingsInput): AlertSettings {
  const num = (raw: string) => (raw.trim() === '' ? null : Number(raw.trim()));
  return { lowBalanceCredits: num(input.lowBalanceCredits), expiringReminderDays: num(input.expiringReminderDays) };
}

/** The form's fields for saved settings. */
export function inputOf(settings: AlertSettings): AlertSettingsInput {
  return {
    lowBalanceCredits: settings.lowBalanceCredits === null ? '' : String(settings.lowBalanceCredits),
    expiringReminderDays: settings.expiringReminderDays === null ? '' : String(settings.expiringReminderDays),
  };
}

/**
 * Saves the settings, then refetches them and the profile (a threshold
 * above the balance raises the low-balance banner at once).
 */
export function useSaveAlertSettings() {
  const refetch = useRefetchAccount();
  const { mutate } = useSWRConfig();
  return async (settings: AlertSettings) => {
    const saved = await api.put<AlertSettings>(alertSettingsKey, settings);
    await mutate(alertSettingsKey, saved, { revalidate: false });
    await refetch(accountKeys.profile);
    return saved;
  };
}
