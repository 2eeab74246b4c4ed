import { ArrowLeft } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form-field';
import { useAuditTrail } from '@/features/staff-audit/api/get-audit';
import { AuditCard } from '@/features/staff-audit/components/audit-card';
import { paths } from '@/config/paths';

type Filter = { accountId: string; actor: string };

/** The staff audit trail; the filter lives in the address (?accountId=&actor=). */
export default function StaffAuditRoute() {
  const [params, setParams] = useSearchParams();
  const accountId = params.get('accountId') ?? '';
  const actor = params.get('actor') ?? '';
  const audit = useAuditTrail({ accountId, actor });
  const { register, handleSubmit } = useForm<Filter>({ values: { accountId, actor } });

  const onSubmit = handleSubmit((values) => {
    const next: Record<string, string> = {};
    if (values.accountId.trim()) next.accountId = values.accountId.trim();
    if (values.actor.trim()) next.actor = values.actor.trim();
    setParams(next);
  });

  return (
    <div className="page">
      <Link className="link" to={paths.staff}>
        <ArrowLeft size={16} aria-hidden /> Search accounts
      </Link>
      <h1 className="page-title">Audit trail</h1>
      <form className="audit-filters" onSubmit={onSubmit} noValidate role="search" aria-label="Filter the audit trail">
        <InputField label="Account id" registration={register('accountId')} />
        <InputField label="Staff member (email or id)" registration={register('actor')} />
        <div className="field">
          <Button type="submit" variant="outline">
            Filter
          </Button>
        </div>
      </form>
      <AuditCard audit={audit} />
    </div>
  );
}
