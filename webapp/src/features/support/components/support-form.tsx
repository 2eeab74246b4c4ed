import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useSWRConfig } from 'swr';
import { Button } from '@/components/ui/button';
import { InputField, TextareaField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { createSupportRequest, supportRequestSchema, type SupportRequestInput } from '../api/create-support-request';
import { supportRequestsKey } from '../api/get-support-requests';

export function SupportForm() {
  const { mutate } = useSWRConfig();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SupportRequestInput>({
    resolver: zodResolver(supportRequestSchema),
    defaultValues: { subject: '', message: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await createSupportRequest(values);
      toast({
        title: 'Support Request Submitted',
        description: "We've received your message and will respond within 24 hours.",
        variant: 'success',
      });
      reset();
      await mutate(supportRequestsKey);
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to submit your support request. Please try again.',
        variant: 'destructive',
      });
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <InputField label="Subject" error={errors.subject} registration={register('subject')} />
      <TextareaField label="Message" rows={6} error={errors.message} registration={register('message')} />
      <Button type="submit" busy={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
