import { z } from '@/lib/zod';
import { MAX_LOW_BALANCE_CREDITS, MAX_REMINDER_DAYS, MIN_REMINDER_DAYS } from './alert-settings';

// Apart from alert-settings.ts: the dashboard's low-balance banner reads the
// settings on first paint, and only the alerts form needs zod (issue 38).

const wholeIn = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .refine((raw) => raw === '' || (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max), message);

/** The form's validation, with the server's messages. */
export const alertSettingsSchema = z.object({
  lowBalanceCredits: wholeIn(0, MAX_LOW_BALANCE_CREDITS, 'Enter a whole number of credits from 0 to 10,000,000, or leave it blank.'),
  expiringReminderDays: wholeIn(
    MIN_REMINDER_DAYS,
    MAX_REMINDER_DAYS,
    'Enter a whole number of days from 1 to 30, or leave it blank.',
  ),
});
