import { describe, expect, it, vi } from 'vitest';
import { unverifiedUser, verifiedUser } from '@/testing/data';
import { never, signedOut, type Handler } from '@/testing/fake-api';
import { act, expectNoToast, findToast, renderApp, screen, waitFor } from '@/testing/test-utils';

describe('sign in', () => {
  it('shows the validation messages under the fields with a red border', async () => {
    const app = renderApp('/login', signedOut);
    await app.user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await app.user.type(screen.getByLabelText('Password'), 'short');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveClass('input-invalid');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(app.callsTo('POST', '/api/login')).toHaveLength(0);
  });

  it('says Signing in... while busy, then sends a verified user to /dashboard', async () => {
    let answer: (reply: { body: unknown }) => void = () => {};
    const app = renderApp('/login', {
      ...signedOut,
      'POST /api/login': () => new Promise((resolve) => (answer = resolve)),
    });
    await app.user.type(await screen.findByLabelText('Email'), 'jane.doe@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(app.callsTo('POST', '/api/login')[0].body).toEqual({ email: 'jane.doe@example.com', password: 'password123' });
    await act(async () => answer({ body: { token: 't', user: verifiedUser } }));
    expect(await findToast('Login Successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back!')).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });

  it('sends an unverified user to /verify-email', async () => {
    const app = renderApp('/login', {
      ...signedOut,
      'POST /api/login': { body: { token: 't', user: unverifiedUser } },
    });
    await app.user.type(await screen.findByLabelText('Email'), 'jane.doe@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Verify Your Email' })).toBeInTheDocument();
    expect(app.location()).toBe('/verify-email');
  });

  it.each<[string, Handler, string]>([
    ['the server message', { status: 401, body: { message: 'Invalid email or password' } }, 'Invalid email or password'],
    ['the server fallback', { status: 500, body: '' }, 'Failed to sign in'],
    ['the network fallback', () => Promise.reject(new TypeError('Failed to fetch')), 'An error occurred during sign in'],
  ])('shows a Login Failed toast with %s', async (_, reply, text) => {
    const app = renderApp('/login', { ...signedOut, 'POST /api/login': reply });
    await app.user.type(await screen.findByLabelText('Email'), 'jane.doe@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await findToast('Login Failed')).toBeInTheDocument();
    // The toast, and an alert on the form that stays (issue 38, item 4).
    const alert = await screen.findByText(text, { selector: '.alert' });
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert.closest('form')).toHaveAttribute('aria-describedby', alert.id);
    expect(app.location()).toBe('/login');
  });

  it('links to reset, sign up and home', async () => {
    renderApp('/login', signedOut);
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/reset-password');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Return to home' })).toHaveAttribute('href', '/');
  });
});

describe('sign up', () => {
  it('requires matching passwords of at least 8 characters', async () => {
    const app = renderApp('/register', signedOut);
    await app.user.type(await screen.findByLabelText('Email'), 'jane@');
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.type(screen.getByLabelText('Confirm Password'), 'password124');
    await app.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toHaveClass('input-invalid');
  });

  it('creates the account and goes to /verify-email', async () => {
    const app = renderApp('/register', {
      ...signedOut,
      'POST /api/register': { status: 201, body: { token: 't', user: unverifiedUser, message: 'ok' } },
    });
    expect(await screen.findByText(/enterprise-grade encryption/)).toBeInTheDocument();
    await app.user.type(screen.getByLabelText('Email'), 'jane.doe@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.type(screen.getByLabelText('Confirm Password'), 'password123');
    await app.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await findToast('Registration Successful')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Verify Your Email' })).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/register')[0].body).toEqual({ email: 'jane.doe@example.com', password: 'password123' });
  });

  it('shows Creating account... while busy and a Registration Failed toast', async () => {
    let answer: (reply: { status: number; body: unknown }) => void = () => {};
    const app = renderApp('/register', {
      ...signedOut,
      'POST /api/register': () => new Promise((resolve) => (answer = resolve)),
    });
    await app.user.type(await screen.findByLabelText('Email'), 'jane.doe@example.com');
    await app.user.type(screen.getByLabelText('Password'), 'password123');
    await app.user.type(screen.getByLabelText('Confirm Password'), 'password123');
    await app.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
    await act(async () => answer({ status: 409, body: { message: 'Email already registered' } }));
    expect(await findToast('Registration Failed')).toBeInTheDocument();
    expect(screen.getByText('Email already registered')).toBeInTheDocument();
  });
});

describe('request password reset', () => {
  it('validates the email', async () => {
    const app = renderApp('/reset-password', signedOut);
    await app.user.click(await screen.findByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
  });

  it('shows Sending... then Check Your Email', async () => {
    let answer: (reply: { body: unknown }) => void = () => {};
    const app = renderApp('/reset-password', {
      ...signedOut,
      'POST /api/auth/reset-password': () => new Promise((resolve) => (answer = resolve)),
    });
    await app.user.type(await screen.findByLabelText('Email'), 'jane.doe@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    await act(async () => answer({ body: { message: 'sent' } }));
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(
      screen.getByText("We've sent instructions to reset your password. Please check your inbox and spam folder."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Return to home' })).toHaveAttribute('href', '/');
    expect(await findToast('Password Reset Email Sent')).toBeInTheDocument();
  });

  it('shows a Password Reset Failed toast', async () => {
    const app = renderApp('/reset-password', { ...signedOut, 'POST /api/auth/reset-password': { status: 500 } });
    await app.user.type(await screen.findByLabelText('Email'), 'jane.doe@example.com');
    await app.user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await findToast('Password Reset Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to send password reset email')).toBeInTheDocument();
  });
});

describe('complete password reset', () => {
  it('fails straight away without a token', async () => {
    renderApp('/reset-password/complete', signedOut);
    expect(await screen.findByRole('heading', { name: 'Password Reset Failed' })).toBeInTheDocument();
    expect(
      screen.getByText('Invalid or missing reset token. Please request a new password reset link.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request New Reset Link' })).toHaveAttribute('href', '/reset-password');
  });

  it.each([
    ['Short!A', 'Password must be at least 10 characters long'],
    ['longenough!', 'Password must contain at least one uppercase letter'],
    ['Longenough1', 'Password must contain at least one special character'],
  ])('rejects %s', async (password, message) => {
    const app = renderApp('/reset-password/complete?token=tok', signedOut);
    await app.user.type(await screen.findByLabelText('New Password'), password);
    await app.user.type(screen.getByLabelText('Confirm Password'), password);
    await app.user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('requires the confirmation to match', async () => {
    const app = renderApp('/reset-password/complete?token=tok', signedOut);
    await app.user.type(await screen.findByLabelText('New Password'), 'Longenough!');
    await app.user.type(screen.getByLabelText('Confirm Password'), 'Longenough?');
    await app.user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText(/10 characters, with one uppercase letter/)).toBeInTheDocument();
  });

  it('succeeds', async () => {
    const app = renderApp('/reset-password/complete?token=tok', {
      ...signedOut,
      'POST /api/auth/reset-password/complete': { body: { success: true, message: 'ok' } },
    });
    await app.user.type(await screen.findByLabelText('New Password'), 'Longenough!');
    await app.user.type(screen.getByLabelText('Confirm Password'), 'Longenough!');
    await app.user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('heading', { name: 'Password Reset Successful!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    expect(app.callsTo('POST', '/api/auth/reset-password/complete')[0].body).toEqual({
      token: 'tok',
      newPassword: 'Longenough!',
    });
    expect(await findToast('Password Reset Successful')).toBeInTheDocument();
  });

  it('shows the server message on failure', async () => {
    const app = renderApp('/reset-password/complete?token=tok', {
      ...signedOut,
      'POST /api/auth/reset-password/complete': { status: 400, body: { success: false, message: 'Token expired' } },
    });
    await app.user.type(await screen.findByLabelText('New Password'), 'Longenough!');
    await app.user.type(screen.getByLabelText('Confirm Password'), 'Longenough!');
    await app.user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('heading', { name: 'Password Reset Failed' })).toBeInTheDocument();
    expect(screen.getByText('Token expired')).toBeInTheDocument();
  });
});

describe('verify email', () => {
  const unverified = { 'GET /api/user': { body: unverifiedUser } };

  it('sends a visitor to /login', async () => {
    const app = renderApp('/verify-email', signedOut);
    expect(await screen.findByRole('heading', { name: 'Sign in to Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
  });

  it('sends a verified user to /dashboard', async () => {
    const app = renderApp('/verify-email');
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
  });

  it('shows a spinner while the session loads', async () => {
    renderApp('/verify-email', { 'GET /api/user': never });
    expect(await screen.findByRole('status', { name: 'Loading your session' })).toBeInTheDocument();
  });

  it('shows the email and a centred 6-digit code input', async () => {
    const app = renderApp('/verify-email', unverified);
    expect(await screen.findByText('jane.doe@example.com')).toBeInTheDocument();
    const code = screen.getByLabelText('Verification code');
    expect(code).toHaveAttribute('placeholder', '000000');
    expect(code).toHaveAttribute('maxLength', '6');
    expect(code).toHaveClass('input-code');
    await app.user.type(code, '123');
    await app.user.click(screen.getByRole('button', { name: 'Verify Email' }));
    expect(await screen.findByText('Please enter the 6-digit verification code')).toBeInTheDocument();
    expect(app.callsTo('POST', '/api/auth/verify-email')).toHaveLength(0);
  });

  it('verifies, says so, and goes to /dashboard after 2 seconds', async () => {
    const app = renderApp('/verify-email', {
      ...unverified,
      'POST /api/auth/verify-email': { body: { message: 'ok', user: verifiedUser } },
    });
    await app.user.type(await screen.findByLabelText('Verification code'), '123456');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await app.user.click(screen.getByRole('button', { name: 'Verify Email' }));
      expect(await screen.findByText(/Your email has been verified. Redirecting to dashboard.../)).toBeInTheDocument();
      expect(app.callsTo('POST', '/api/auth/verify-email')[0].body).toEqual({ code: '123456' });
      expect(await findToast('Email Verified')).toBeInTheDocument();
      await act(async () => vi.advanceTimersByTime(1500));
      expect(app.location()).toBe('/verify-email');
      await act(async () => vi.advanceTimersByTime(600));
      await waitFor(() => expect(app.location()).toBe('/dashboard'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows errors once, under Verification Error, tied to the form (no toast)', async () => {
    const app = renderApp('/verify-email', {
      ...unverified,
      'POST /api/auth/verify-email': { status: 400, body: { message: 'Invalid or expired code' } },
    });
    await app.user.type(await screen.findByLabelText('Verification code'), '000000');
    await app.user.click(screen.getByRole('button', { name: 'Verify Email' }));
    const alert = await screen.findByRole('alert', { name: '' });
    expect(alert).toHaveTextContent('Verification Error');
    expect(alert).toHaveTextContent('Invalid or expired code');
    expect(alert.closest('form')).toHaveAttribute('aria-describedby', alert.id);
    expectNoToast();
  });

  it('resends the code', async () => {
    const app = renderApp('/verify-email', {
      ...unverified,
      'POST /api/auth/resend-verification': { body: { message: 'sent' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Resend Verification Code' }));
    expect(await findToast('Verification Code Sent')).toBeInTheDocument();
    expect(screen.getByText('A new verification code has been sent to your email.')).toBeInTheDocument();
  });

  it('reports a refused resend once, under Verification Error (no toast)', async () => {
    const app = renderApp('/verify-email', {
      ...unverified,
      'POST /api/auth/resend-verification': { status: 429, body: { message: 'Please wait a minute' } },
    });
    await app.user.click(await screen.findByRole('button', { name: 'Resend Verification Code' }));
    expect(await screen.findByRole('heading', { name: 'Verification Error' })).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: '' })).toHaveTextContent('Please wait a minute');
    expectNoToast();
  });
});
