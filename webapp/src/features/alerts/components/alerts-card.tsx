import { zodResolver } from '@hookform/resolvers/zod';
import { Bell } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { InputField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import { alertSettingsSchema } from '../api/alert-settings-schema';
import {
  inputOf,
  settingsOf,
  useAlertSettings,
  useSaveAlertSettings,
  type AlertSettingsInput,
} from '../api/alert-settings';

/**
 * The dashboard's "Alerts" section (issue 33): an email and a banner when
 * available credits fall below a threshold, and a reminder some days before
 * monthly credits expire unspent. A blank field turns that alert off.
 */
export function AlertsCard() {
  const { data, error, mutate } = useAlertSettings();
  const save = useSaveAlertSettings();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AlertSettingsInput>({
    resolver: zodResolver(alertSettingsSchema),
    defaultValues: { lowBalanceCredits: '', expiringReminderDays: '' },
  });
  useEffect(() => {
    if (data) reset(inputOf(data));
  }, [data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save(settingsOf(values));
      toast({ title: 'Alerts Saved', description: 'We will email you as you asked.', variant: 'success' });
    } catch (err) {
      if (err instanceof ApiError) {
        for (const [field, message] of Object.entries(err.fieldErrors)) {
          if (field === 'lowBalanceCredits' || field === 'expiringReminderDays') setError(field, { message });
        }
      }
      toast({
        title: 'Error',
        description: serverMessage(err) ?? 'Failed to save your alerts. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <Card>
      <CardHeader title="Alerts" level={2} action={<Bell size={20} aria-hidden />} />
      {data ? (
        <form className="form" onSubmit={onSubmit} noValidate aria-label="Alerts">
          <InputField
            label="Low balance alert (credits)"
            inputMode="numeric"
            hint="Email me and show a banner when my available credits fall below this. Leave blank for no alert."
            error={errors.lowBalanceCredits}
            registration={register('lowBalanceCredits')}
          />
          <InputField
            label="Expiry reminder (days before)"
            inputMode="numeric"
            hint="Email me this many days (1 to 30) before my monthly credits expire unspent. Leave blank for no reminder."
            error={errors.expiringReminderDays}
            registration={register('expiringReminderDays')}
          />
          <Button type="submit" busy={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Save Alerts'}
          </Button>
        </form>
      ) : error ? (
        <LoadError what="your alerts" onRetry={() => void mutate()} />
      ) : (
        <Spinner label="Loading your alerts" />
      )}
    </Card>
  );
}
