import '@/styles/staff.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TextareaField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { SubscriptionStatusBadge } from '@/components/subscription-status-badge';
import { paths } from '@/config/paths';
import { ApiError, serverMessage } from '@/lib/api-client';
import { formatDate, TIME_TO_SECOND_FORMAT } from '@/lib/dates';
import { SUPPORT_STATUSES, type SupportStatus } from '../api/get-support-inbox';
import type { SupportThread as Thread } from '../api/get-support-request';
import { replySchema, replySupportRequest, type ReplyInput } from '../api/reply-support-request';
import { setSupportRequestStatus } from '../api/set-support-request-status';
import { SectionCard } from '@/components/ui/section-card';
import { SupportStatusBadge } from './support-status-badge';
import { formatCredits } from '@/lib/format';

/** A request, its replies, a reply form and the status; the seller's account beside them. */
export function SupportThread({ thread, onChanged }: { thread: Thread; onChanged: () => Promise<unknown> }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ReplyInput>({ resolver: zodResolver(replySchema), defaultValues: { message: '' } });

  const onReply = handleSubmit(async (values) => {
    try {
      await replySupportRequest(thread.id, values);
      reset();
      toast({ title: 'Reply sent', description: `Mailed to ${thread.email}; the request is answered.`, variant: 'success' });
      await onChanged();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.message) setError('message', { message: error.fieldErrors.message });
      toast({ title: 'Reply failed', description: serverMessage(error) ?? 'Could not send the reply. Please try again.', variant: 'destructive' });
    }
  });

  const changeStatus = async (status: SupportStatus) => {
    try {
      await setSupportRequestStatus(thread.id, status);
      toast({ title: 'Status changed', description: `The request is ${status}.`, variant: 'success' });
      await onChanged();
    } catch (error) {
      toast({ title: 'Status not changed', description: serverMessage(error) ?? 'Please try again.', variant: 'destructive' });
    }
  };

  const account = thread.account;
  return (
    <div className="grid-2">
      <div className="stack">
        <SectionCard
          title="Request"
          description={`From ${thread.email}, ${formatDate(thread.createdAt, TIME_TO_SECOND_FORMAT)}`}
          action={<SupportStatusBadge status={thread.status} />}
        >
          <p className="support-message">{thread.message}</p>
          {thread.replies.map((r) => (
            <div key={r.id} className="support-reply" aria-label={`Reply from ${r.author}`}>
              <p className="muted">
                {r.author}, {formatDate(r.createdAt, TIME_TO_SECOND_FORMAT)}
              </p>
              <p className="support-message">{r.message}</p>
            </div>
          ))}
        </SectionCard>
        <SectionCard title="Reply" description="Kept in the thread and mailed to the seller; the request becomes answered.">
          <form className="form" onSubmit={onReply} noValidate>
            <TextareaField label="Message" rows={6} error={errors.message} registration={register('message')} />
            <div>
              <Button type="submit" busy={isSubmitting}>
                {isSubmitting ? 'Sending...' : 'Send reply'}
              </Button>
            </div>
          </form>
        </SectionCard>
      </div>
      <div className="stack">
        <SectionCard title="Status">
          <label className="field">
            <span className="field-label">Request status</span>
            <select className="input" value={thread.status} onChange={(e) => void changeStatus(e.target.value as SupportStatus)}>
              {SUPPORT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s[0].toUpperCase() + s.slice(1)}
                </option>
              ))}
            </select>
          </label>
        </SectionCard>
        <SectionCard title="Seller's account">
          {account ? (
            <dl className="staff-facts" aria-label="Account summary">
              <dt>Email</dt>
              <dd>
                <Link className="link" to={paths.staffAccount(account.id)}>
                  {account.email}
                </Link>
              </dd>
              <dt>Balance</dt>
              <dd>{formatCredits(account.creditsAvailable)} credits</dd>
              <dt>Subscription</dt>
              <dd>
                <SubscriptionStatusBadge status={account.subscriptionStatus} endsAt={account.subscriptionEndsAt} />
              </dd>
              <dt>Credits owed</dt>
              <dd>{formatCredits(account.creditDebt ?? 0)}</dd>
              <dt>Spending</dt>
              <dd>{account.spendingFrozen ? <Badge tone="danger">Frozen</Badge> : 'Allowed'}</dd>
            </dl>
          ) : (
            <p className="muted">The account no longer exists.</p>
          )}
        </SectionCard>
      </div>
    </div>
  );
}
