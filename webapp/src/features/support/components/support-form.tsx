import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { InputField, TextareaField } from '@/components/ui/form-field';
import { toast } from '@/components/ui/toast-store';
import { serverMessage } from '@/lib/api-client';
import { supportRequestSchema, useSendSupportRequest, type SupportRequestInput } from '../api/create-support-request';

export function SupportForm() {
  const send = useSendSupportRequest();
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
      await send(values);
      toast({
        title: 'Support Request Submitted',
        description: "We've received your message and will respond within 24 hours.",
        variant: 'success',
      });
      reset();
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
