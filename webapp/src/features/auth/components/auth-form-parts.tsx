import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { InputField } from '@/components/ui/form-field';
import { paths } from '@/config/paths';

/** The Email field of the sign-in, sign-up and reset-request forms. */
export function EmailField({ error, registration }: { error?: FieldError; registration: UseFormRegisterReturn }) {
  return (
    <InputField
      label="Email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      error={error}
      registration={registration}
    />
  );
}

/**
 * The links under an auth form: `prompt` and a link to the other form
 * (`to`, named `action`), then Return to home.
 */
export function AuthFormLinks({ prompt, to, action }: { prompt: string; to: string; action: string }) {
  return (
    <>
      <p className="form-footer">
        {prompt}{' '}
        <Link to={to} className="link">
          {action}
        </Link>
      </p>
      <p className="form-footer">
        <Link to={paths.home} className="link-muted">
          Return to home
        </Link>
      </p>
    </>
  );
}
