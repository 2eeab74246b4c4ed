import { Download } from 'lucide-react';

/** The CSV export covers at most 366 days: the last year, today included (UTC). */
export const CSV_DAYS = 366;

/** GET /api/transactions.csv over the `days` UTC days up to `now`. */
export function transactionsCsvUrl(days: number = CSV_DAYS, now: Date = new Date()): string {
  const from = new Date(now);
  from.setUTCDate(from.getUTCDate() - (days - 1));
  return `/api/transactions.csv?from=${from.toISOString().slice(0, 10)}&to=${now.toISOString().slice(0, 10)}`;
}

/** Downloads the last year's transactions as CSV, for the seller's accountant. */
export function TransactionsCsvButton() {
  return (
    <p className="transactions-csv">
      <a className="btn btn-outline btn-sm" href={transactionsCsvUrl()} download>
        <Download size={16} aria-hidden /> Download CSV (last 12 months)
      </a>
    </p>
  );
}
