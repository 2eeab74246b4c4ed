import { ArrowLeft, Printer } from 'lucide-react';
import { useParams } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAppConfig } from '@/lib/app-config';
import { capitalize, formatCents } from '@/lib/format';
import { useReceipt, type Receipt } from '@/features/transactions/api/get-receipt';
import { TransactionStatusBadge } from '@/features/transactions/components/transaction-status-badge';

const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** A moment as the receipt prints it: "November 27, 2026 at 7:30 AM UTC". */
export function formatUtc(iso: string): string {
  return `${utc.format(new Date(iso))} UTC`;
}

/**
 * /receipts/:paymentId (issue 38): a paid payment's receipt from the ledger
 * (GET /api/transactions/{id}), for the credit purchases that have no
 * provider invoice. Print-friendly: the app's chrome and the buttons are
 * left off the printed page (index.css, @media print).
 */
export default function ReceiptRoute() {
  const { paymentId = '' } = useParams();
  const { data, error, mutate } = useReceipt(paymentId);
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <div className="page receipt-page">
      <div className="receipt-actions no-print">
        <ButtonLink to={paths.transactions} variant="ghost" size="sm">
          <ArrowLeft size={16} aria-hidden /> Transactions
        </ButtonLink>
        {data && (
          <Button variant="outline" size="sm" onClick={() => window.print()}>
            <Printer size={16} aria-hidden /> Print
          </Button>
        )}
      </div>
      {data ? (
        <ReceiptCard receipt={data} />
      ) : notFound ? (
        <Card>
          <h1 className="page-title">Receipt not found</h1>
          <p className="muted">No payment of your account has this id.</p>
        </Card>
      ) : error ? (
        <LoadError what="this receipt" onRetry={() => void mutate()} />
      ) : (
        <Spinner label="Loading receipt" />
      )}
    </div>
  );
}

function ReceiptCard({ receipt: r }: { receipt: Receipt }) {
  const supportEmail = useAppConfig().data?.supportEmail;
  const refunded = r.refundedAmount > 0;
  return (
    <Card className="receipt" aria-labelledby="receipt-title">
      <header className="receipt-header">
        <div>
          <p className="receipt-product">{r.productName}</p>
          <h1 id="receipt-title" className="page-title">
            Receipt
          </h1>
        </div>
        <TransactionStatusBadge status={r.status} />
      </header>
      <dl className="receipt-fields">
        <dt>Billed to</dt>
        <dd>{r.email}</dd>
        <dt>Payment ID</dt>
        <dd>
          <code>{r.id}</code>
        </dd>
        <dt>Date</dt>
        <dd>{formatUtc(r.transactionDate)}</dd>
        <dt>Description</dt>
        <dd>{r.description}</dd>
        {r.credits > 0 && (
          <>
            <dt>Credits</dt>
            <dd>{r.credits.toLocaleString('en-US')}</dd>
          </>
        )}
        <dt>Amount paid</dt>
        <dd className="receipt-amount">
          {formatCents(r.amount)} {r.currency}
        </dd>
        {refunded && (
          <>
            <dt>Refunded</dt>
            <dd>
              {formatCents(r.refundedAmount)} {r.currency}
            </dd>
          </>
        )}
        {r.paymentMethod && (
          <>
            <dt>Payment method</dt>
            <dd>
              {capitalize(r.paymentMethod.brand)} ending in {r.paymentMethod.last4}
            </dd>
          </>
        )}
      </dl>
      {supportEmail && (
        <p className="receipt-note muted">
          Questions about this payment? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      )}
    </Card>
  );
}
