import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { z } from 'zod';
import type { Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import { TextField } from '../../../components/form-fields.tsx';
import { ApiError } from '../../../lib/api.ts';
import { leaveKiosk } from '../api/leave-kiosk.ts';

const leaveFormSchema = z.object({ password: z.string().min(1, 'Enter the password.') });
type LeaveForm = z.infer<typeof leaveFormSchema>;

/**
 * Leaving needs the password of the staff member who started the kiosk, and a connection;
 * actions still waiting to be sent keep the kiosk here, so none is lost.
 */
export function LeaveKioskForm({
  kiosk,
  pending,
  onCancel,
  onLeft,
}: {
  kiosk: Kiosk;
  pending: number;
  onCancel: () => void;
  onLeft: () => Promise<void>;
}) {
  const form = useForm<LeaveForm>({
    resolver: zodResolver(leaveFormSchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (input) => {
    if (pending > 0) return form.setError('root', { message: kioskMessages.leaveWithPending });
    try {
      await leaveKiosk(input);
    } catch (error) {
      // 401: the kiosk had already ended on the server; leaving here is all that is left.
      if (!(error instanceof ApiError && error.status === 401)) {
        // 403 wrong password, 429 too many tries; no answer at all: offline.
        const message =
          error instanceof ApiError ? error.message : kioskMessages.leaveNeedsConnection;
        form.reset({ password: '' });
        return form.setError('password', { message }, { shouldFocus: true });
      }
    }
    await onLeft();
  });

  return (
    <section className="kiosk-panel" aria-labelledby="kiosk-leave-heading">
      <h1 id="kiosk-leave-heading">Leave kiosk mode</h1>
      <p>Enter the password of {kiosk.startedBy.name}, who started this kiosk.</p>
      <form className="form kiosk-form" noValidate onSubmit={(event) => void submit(event)}>
        {errors.root && (
          <p className="form-error" role="alert">
            {errors.root.message}
          </p>
        )}
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          autoFocus
          required
          error={errors.password?.message}
          {...form.register('password')}
        />
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting}
            aria-busy={isSubmitting || undefined}
          >
            Leave kiosk mode
          </button>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
