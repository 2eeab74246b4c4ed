import { Button } from '@/components/ui/button';
import '@/styles/staff.css';

/**
 * The day to look at the account as of (yyyy-MM-dd), or null for now. The
 * moment is the end of that day in the viewer's time zone.
 */
export function AsOfPicker({ day, onChange }: { day: string | null; onChange: (day: string | null) => void }) {
  return (
    <div className="staff-toolbar">
      <div className="field">
        <label className="field-label" htmlFor="staff-as-of">
          As of
        </label>
        <input
          id="staff-as-of"
          className="input"
          type="date"
          value={day ?? ''}
          aria-describedby="staff-as-of-hint"
          onChange={(event) => onChange(event.target.value || null)}
        />
      </div>
      {day && (
        <Button variant="ghost" onClick={() => onChange(null)}>
          Back to now
        </Button>
      )}
      <p className="field-hint" id="staff-as-of-hint">
        {day ? 'The end of this day, your time zone: the timeline stops there.' : 'Now: every event so far.'}
      </p>
    </div>
  );
}
