import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { kioskMessages, pinLockedMessage } from '@platform/schema/kiosk/kiosk.messages';
import { kioskPinFormSchema, type KioskPinForm } from '@platform/schema/kiosk/kiosk.zod';
import { pinLockRemainingMs } from '@platform/schema/kiosk/kiosk-pin.rules';
import { TextField } from '../../../components/form-fields.tsx';
import { FormNotice, type Notice } from '../../../components/form-notice.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { KIOSK_PIN_SECTION_ID } from '../kiosk-texts.ts';
import { removeKioskPin } from '../api/remove-kiosk-pin.ts';
import { setKioskPin } from '../api/set-kiosk-pin.ts';
import { useKioskPinStatus } from '../hooks/use-kiosk-pin-status.ts';

const emptyForm: KioskPinForm = { pin: '', confirmPin: '' };
const failed = (error: unknown) =>
  error instanceof ApiError
    ? error.message
    : 'You are offline. Your PIN needs a connection to change.';

/**
 * The settings section where a person sets their kiosk PIN (4 to 8 digits, typed twice). The
 * PIN is never shown or sent back; only whether one is set.
 */
export function KioskPinSection() {
  const online = useOnlineStatus();
  const { status, update: setStatus } = useKioskPinStatus();
  const [notice, setNotice] = useState<Notice | null>(null);
  const form = useForm<KioskPinForm>({
    resolver: zodResolver(kioskPinFormSchema),
    mode: 'onTouched',
    defaultValues: emptyForm,
  });
  const { errors, isSubmitting } = form.formState;
  const heading = useRef<HTMLHeadingElement>(null);

  // The kiosk's PIN screen links here (KIOSK_PIN_SETTINGS_PATH): the section shows once the
  // page has loaded, after the browser looked for the #fragment, so bring it into view.
  useEffect(() => {
    if (window.location.hash !== `#${KIOSK_PIN_SECTION_ID}`) return;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, []);

  const submit = form.handleSubmit(async ({ pin }) => {
    setNotice(null);
    try {
      setStatus(await setKioskPin({ pin }));
      form.reset(emptyForm);
      setNotice({ tone: 'success', text: kioskMessages.pinSaved });
    } catch (error) {
      setNotice({ tone: 'error', text: failed(error) });
    }
  });

  async function remove() {
    setNotice(null);
    try {
      setStatus(await removeKioskPin());
      setNotice({ tone: 'success', text: kioskMessages.pinRemoved });
    } catch (error) {
      setNotice({ tone: 'error', text: failed(error) });
    }
  }

  const lockedFor = pinLockRemainingMs(new Date(), status?.lockedUntil);
  return (
    <section
      id={KIOSK_PIN_SECTION_ID}
      className="kiosk-pin-section"
      aria-labelledby="kiosk-pin-section-heading"
    >
      <h2 id="kiosk-pin-section-heading" ref={heading} tabIndex={-1}>
        Kiosk PIN
      </h2>
      <p>At the front-desk kiosk you clock in and out with a personal PIN of 4 to 8 digits.</p>
      {status && (
        <p>
          {status.hasPin ? 'You have a kiosk PIN.' : 'You have no kiosk PIN yet.'}
          {lockedFor > 0 && ` ${pinLockedMessage(lockedFor)} A new PIN lifts the lock.`}
        </p>
      )}
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label={status?.hasPin ? 'New PIN' : 'PIN'}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          required
          error={errors.pin?.message}
          {...form.register('pin')}
        />
        <TextField
          label="Confirm PIN"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          required
          error={errors.confirmPin?.message}
          {...form.register('confirmPin')}
        />
        <FormNotice notice={notice} />
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting || !online}
            aria-busy={isSubmitting || undefined}
          >
            {isSubmitting ? 'Saving…' : 'Save PIN'}
          </button>
          {status?.hasPin && (
            <button
              type="button"
              className="button button-secondary"
              disabled={!online}
              onClick={() => void remove()}
            >
              Remove PIN
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
