import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { pinSchema } from '@platform/schema/kiosk/kiosk-pin.rules';
import type { Kiosk, KioskStaffMember } from '@platform/schema/kiosk/kiosk.zod';
import { TextField } from '../../../components/form-fields.tsx';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { checkPin } from '../pin-check.ts';
import { KIOSK_PIN_SETTINGS_PATH } from '../kiosk-texts.ts';
import { QrCode } from '../../../components/qr-code.tsx';
import { PinKeypad } from './pin-keypad.tsx';

const PIN_INPUT_MAX = 8;

const pinFormSchema = z.object({ pin: pinSchema });
type PinForm = z.infer<typeof pinFormSchema>;

/** The person's PIN, checked by the server when it can be reached and on this device when not. */
export function PinForm({
  kiosk,
  person,
  onVerified,
  onBack,
  onKioskEnded,
}: {
  kiosk: Kiosk;
  person: KioskStaffMember;
  onVerified: () => void;
  onBack: () => void;
  onKioskEnded: () => void;
}) {
  const form = useForm<PinForm>({
    resolver: zodResolver(pinFormSchema),
    defaultValues: { pin: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const pin = useWatch({ control: form.control, name: 'pin' });
  const settingsUrl = `${window.location.origin}${KIOSK_PIN_SETTINGS_PATH}`;

  const submit = form.handleSubmit(async ({ pin }) => {
    const outcome = await checkPin(kiosk, person, pin);
    if (outcome.ok) return onVerified();
    form.reset({ pin: '' });
    form.setError('pin', { message: outcome.message }, { shouldFocus: true });
    if (outcome.kioskEnded) onKioskEnded();
  });

  return (
    <section className="kiosk-panel" aria-labelledby="kiosk-pin-heading">
      <h1 id="kiosk-pin-heading">Hello, {person.name}</h1>
      {person.pin === null && <p className="kiosk-muted">{kioskMessages.noPin}</p>}
      <form className="form kiosk-form" noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label="PIN"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          maxLength={PIN_INPUT_MAX}
          hint="Your personal kiosk PIN, 4 to 8 digits."
          error={errors.pin?.message}
          {...form.register('pin')}
        />
        <PinKeypad
          value={pin}
          maxLength={PIN_INPUT_MAX}
          disabled={isSubmitting}
          onChange={(next) => form.setValue('pin', next, { shouldValidate: false })}
        />
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting}
            aria-busy={isSubmitting || undefined}
          >
            Continue
          </button>
          <button type="button" className="button button-secondary" onClick={onBack}>
            Back
          </button>
        </div>
      </form>
      {/* Not a link: a PIN is set on one's own phone, never on the shared kiosk (issue 14). */}
      <div className="kiosk-pin-help">
        <QrCode url={settingsUrl} label={`QR code that opens ${settingsUrl}`} />
        <p className="kiosk-muted">
          {person.pin === null ? 'No PIN yet?' : 'Forgot your PIN?'} Scan this with your phone, or
          open <span className="kiosk-pin-url">{settingsUrl}</span> on your own device, and set
          one under Kiosk PIN.
        </p>
      </div>
    </section>
  );
}
