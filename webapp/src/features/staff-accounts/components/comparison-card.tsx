import { CircleCheck, TriangleAlert } from 'lucide-react';
import type { SWRResponse } from 'swr';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { Comparison } from '../api/get-account-comparison';
import { SectionCard } from '@/components/ui/section-card';
import '@/styles/staff.css';

/** A field's value as the comparison reports it: strings bare, the rest as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '(none)' : value;
  return JSON.stringify(value) ?? '(none)';
}

/** Whether the read tables (profile, usage, transactions) agree with a replay of the events. */
export function ComparisonCard({ comparison }: { comparison: SWRResponse<Comparison> }) {
  const { data, error, isLoading, isValidating, mutate } = comparison;
  return (
    <SectionCard
      title="Read tables vs events"
      description="Replays the account's events and compares the result with what the dashboard reads."
      action={
        <Button variant="outline" size="sm" busy={isValidating} onClick={() => mutate()}>
          Compare again
        </Button>
      }
    >
      {isLoading && <Spinner label="Comparing" />}
      {error && <p className="alert alert-error">Could not compare the account.</p>}
      {data &&
        (data.consistent ? (
          <p className="staff-verdict staff-verdict-ok" role="status">
            <CircleCheck size={18} aria-hidden /> Read tables match the events
          </p>
        ) : (
          <>
            <p className="staff-verdict staff-verdict-bad" role="status">
              <TriangleAlert size={18} aria-hidden /> Read tables differ from the events
            </p>
            <div className="table-wrap" role="region" aria-label="Differences table" tabIndex={0}>
              <table className="table staff-differences">
                <caption className="sr-only">Differences</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Events</th>
                    <th scope="col">Read model</th>
                  </tr>
                </thead>
                <tbody>
                  {data.differences.map((d) => (
                    <tr key={d.field}>
                      <td>{d.field}</td>
                      <td>{shown(d.events)}</td>
                      <td>{shown(d.readModel)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ))}
      {data && <p className="field-hint">Up to event #{data.position}</p>}
    </SectionCard>
  );
}
