import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAccountSearch } from '../api/search-accounts';
import { AccountsTable } from './accounts-table';
import '@/styles/staff.css';

/** The search box and its results; the query lives in the address (?q=) so Back returns to them. */
export function AccountSearch() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const { data, error, isLoading } = useAccountSearch(query);

  return (
    <>
      {/* Keyed by the query, so Back and Forward refill the box. */}
      <SearchForm key={query} initial={query} onSearch={(q) => setParams(q ? { q } : {})} />
      {isLoading && <Spinner label="Searching accounts" />}
      {error && <p className="alert alert-error">Could not search accounts.</p>}
      {data &&
        (data.length === 0 ? (
          <p className="empty">No account matches “{query.trim()}”</p>
        ) : (
          <AccountsTable accounts={data} />
        ))}
    </>
  );
}

function SearchForm({ initial, onSearch }: { initial: string; onSearch: (query: string) => void }) {
  const [text, setText] = useState(initial);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    onSearch(text.trim());
  }

  return (
    <form className="staff-search" role="search" onSubmit={onSubmit}>
      <div className="field">
        <label className="field-label" htmlFor="staff-search">
          Email or account id
        </label>
        <input
          id="staff-search"
          className="input"
          type="search"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <Button type="submit">
        <Search size={16} aria-hidden /> Search
      </Button>
    </form>
  );
}
