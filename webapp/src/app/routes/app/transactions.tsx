import { Card, CardHeader } from '@/components/ui/card';
import { Faq } from '@/components/ui/faq';
import { LoadError } from '@/components/ui/load-error';
import { Spinner } from '@/components/ui/spinner';
import { useTransactions } from '@/features/transactions/api/get-transactions';
import { TransactionsTable } from '@/features/transactions/components/transactions-table';
import { TransactionsCsvButton } from '@/features/transactions/components/transactions-csv-button';

const BILLING_FAQ = [
  { q: 'When am I charged?', a: 'The subscription is charged monthly; credit purchases are charged at checkout.' },
  { q: 'Can I get a refund for unused credits?', a: 'No. Unused credits are not refunded. Purchased credits never expire.' },
  {
    q: 'Where is my invoice?',
    // Issue 38: Stripe's hosted invoice for a subscription payment; our
    // receipt page (/receipts/:id, from the ledger) for a paid credit purchase.
    a: 'Subscription payments link to their invoice in the Invoice column; credit purchases link to a printable receipt.',
  },
  { q: 'Why did a payment fail?', a: 'Usually the card was declined. Try again or use another card.' },
];

export default function TransactionsRoute() {
  const { data, error, mutate } = useTransactions();
  return (
    <div className="page">
      <h1 className="page-title">Transactions</h1>
      <Card>
        <CardHeader title="Transaction History" description="Your subscription payments and credit purchases." />
        {data ? (
          <TransactionsTable transactions={data} otherStatusLabel="Failed" />
        ) : error ? (
          <LoadError what="your transactions" onRetry={() => void mutate()} />
        ) : (
          <Spinner label="Loading transactions" />
        )}
        <TransactionsCsvButton />
      </Card>
      <Card>
        <CardHeader title="Billing FAQ" />
        <Faq items={BILLING_FAQ} />
      </Card>
    </div>
  );
}
