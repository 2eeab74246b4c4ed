import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { ApiError, serverMessage } from '@/lib/api-client';
import type { User } from '@/lib/auth-api/types';
import { enrollMfa, mfaCodeSchema, verifyMfa, type MfaCodeInput, type MfaEnrolment } from '../api/mfa';
import { SectionCard } from '@/components/ui/section-card';
import '@/styles/staff.css';

/**
 * The staff second factor: the first time, set it up (the secret and its
 * otpauth:// URL to add to an authenticator app, and the recovery codes,
 * shown once); then a code. onPassed gets the user the server answered.
 */
export function MfaPrompt({ enrolled, onPassed }: { enrolled: boolean; onPassed: (user: User) => Promise<unknown> }) {
  const [enrolment, setEnrolment] = useState<MfaEnrolment | null>(null);
  const [enrolling, setEnrolling] = useState(false);

  const setUp = async () => {
    setEnrolling(true);
    try {
      setEnrolment(await enrollMfa());
    } catch (error) {
      toast({
        title: 'Set-up failed',
        description: serverMessage(error) ?? 'Could not set up the second factor. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setEnrolling(false);
    }
  };

  return (
    <>
      {!enrolled && (
        <SectionCard
          title="Set up your authenticator"
          description="The staff console needs a code from an authenticator app (Google Authenticator, 1Password, Authy…) on top of your password."
        >
          {enrolment ? (
            <div className="mfa-enrolment">
              <p>Add this key to your authenticator app (time-based, 6 digits, every 30 seconds):</p>
              <dl className="mfa-keys">
                <dt>Secret key</dt>
                <dd>
                  <code>{enrolment.secret}</code>
                </dd>
                <dt>Or this otpauth URL</dt>
                <dd>
                  <code>{enrolment.otpauthUrl}</code>
                </dd>
              </dl>
              <div className="alert alert-warning">
                <p className="alert-title">Recovery codes: shown only now</p>
                <p>Keep them somewhere safe. Each one signs you in once if you lose your device.</p>
                <ul className="mfa-codes" aria-label="Recovery codes">
                  {enrolment.recoveryCodes.map((c) => (
                    <li key={c}>
                      <code>{c}</code>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          ) : (
            <Button onClick={setUp} busy={enrolling}>
              {enrolling ? 'Setting up...' : 'Set up the second factor'}
            </Button>
          )}
        </SectionCard>
      )}
      {(enrolled || enrolment) && <CodeForm onPassed={onPassed} />}
    </>
  );
}

function CodeForm({ onPassed }: { onPassed: (user: User) => Promise<unknown> }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<MfaCodeInput>({ resolver: zodResolver(mfaCodeSchema), defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const verified = await verifyMfa(values);
      toast({
        title: 'Second factor accepted',
        description: `${verified.recoveryCodesLeft} unused recovery ${verified.recoveryCodesLeft === 1 ? 'code' : 'codes'} left.`,
        variant: 'success',
      });
      await onPassed(verified.user);
    } catch (error) {
      const message =
        serverMessage(error) ?? (error instanceof ApiError ? 'The code was refused.' : 'Could not check the code. Please try again.');
      setError('code', { message });
    }
  });

  return (
    <SectionCard title="Enter your code" description="The 6-digit code your authenticator app shows now, or one of your recovery codes.">
      <form className="form" onSubmit={onSubmit} noValidate>
        <InputField
          label="Authentication code"
          autoComplete="one-time-code"
          inputMode="text"
          error={errors.code}
          registration={register('code')}
        />
        <div>
          <Button type="submit" busy={isSubmitting}>
            {isSubmitting ? 'Checking...' : 'Verify'}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
