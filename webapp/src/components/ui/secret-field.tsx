import { Eye, EyeOff } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Button } from './button';

/** A secret as shown while hidden: its first and last 4 characters, the rest as dots. */
export function maskSecret(secret: string): string {
  if (secret.length <= 8) return '•'.repeat(secret.length);
  return `${secret.slice(0, 4)}${'•'.repeat(Math.min(secret.length - 8, 16))}${secret.slice(-4)}`;
}

type SecretFieldProps = {
  label: string;
  value: string;
  /** What the secret is called in the reveal button's name ('API key' → 'Show API key'). */
  name: string;
  /** Buttons after the reveal button, e.g. a CopyButton (which copies the secret, hidden or not). */
  actions?: ReactNode;
};

/**
 * A read-only secret, hidden until the reader asks (issue 38): masked by
 * default, so a screen share or a shoulder does not see it, with a
 * Show/Hide button (aria-pressed) beside the field's other actions.
 */
export function SecretField({ label, value, name, actions }: SecretFieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="input-group">
        <input
          id={id}
          className="input input-mono"
          readOnly
          value={shown ? value : maskSecret(value)}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="outline"
          aria-label={`${shown ? 'Hide' : 'Show'} ${name}`}
          aria-pressed={shown}
          onClick={() => setShown((s) => !s)}
          disabled={!value}
        >
          {shown ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
          <span className="btn-text">{shown ? 'Hide' : 'Show'}</span>
        </Button>
        {actions}
      </div>
    </div>
  );
}
