import { useId, useState, type ChangeEvent } from 'react';
import {
  brandingMessages,
  LOGO_MAX_BYTES,
  type BrandingSettingsResponse,
} from '@platform/schema/branding/branding.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import { NetworkError } from '../../../lib/api.ts';
import { removeLogo, uploadLogo } from '../api/branding.ts';

const accepted = 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml';

/** The logo: shown as the app icon it becomes (also as a maskable icon cut to a circle). */
export function LogoSettings({
  settings,
  onChange,
}: {
  settings: BrandingSettingsResponse;
  onChange: (settings: BrandingSettingsResponse) => void;
}) {
  const toast = useToast();
  const inputId = useId();
  const [busy, setBusy] = useState<'uploading' | 'removing' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    if (file.size > LOGO_MAX_BYTES) {
      setError(brandingMessages.logoTooLarge);
      return;
    }
    setBusy('uploading');
    try {
      const outcome = await uploadLogo(settings.orgId, file);
      if (outcome.ok) {
        onChange(outcome.settings);
        toast.success(brandingMessages.logoSaved);
      } else {
        setError(outcome.errors[0]?.message ?? brandingMessages.logoNotAnImage);
      }
    } catch (cause) {
      setError(
        cause instanceof NetworkError
          ? 'You are offline. Uploading a logo needs a connection.'
          : 'The logo could not be uploaded. Please try again.',
      );
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    setBusy('removing');
    setError(null);
    try {
      onChange(await removeLogo(settings.orgId));
      toast.success(brandingMessages.logoRemoved);
    } catch {
      setError('The logo could not be removed. Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const maskable = settings.logoUrl?.replace('icon-192.png', 'icon-maskable-512.png') ?? null;
  return (
    <div className="logo-settings">
      <div className="logo-previews" aria-live="polite">
        {settings.logoUrl && maskable ? (
          <>
            <figure>
              <img src={settings.logoUrl} alt="Your logo as the app icon" width={96} height={96} />
              <figcaption>App icon</figcaption>
            </figure>
            <figure>
              <img
                className="maskable-preview"
                src={maskable}
                alt="Your logo as a round home-screen icon"
                width={96}
                height={96}
              />
              <figcaption>On Android home screens</figcaption>
            </figure>
          </>
        ) : (
          <p className="field-hint">No logo yet: the app uses the platform's icon.</p>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="button-row">
        <input
          id={inputId}
          className="visually-hidden file-input"
          type="file"
          accept={accepted}
          disabled={busy !== null}
          onChange={(event) => void upload(event)}
        />
        <label htmlFor={inputId} className="button" aria-disabled={busy !== null || undefined}>
          {busy === 'uploading' ? 'Uploading…' : settings.logoUrl ? 'Replace logo' : 'Upload logo'}
        </label>
        {settings.logoUrl && (
          <button
            type="button"
            className="button button-secondary"
            disabled={busy !== null}
            onClick={() => void remove()}
          >
            {busy === 'removing' ? 'Removing…' : 'Remove logo'}
          </button>
        )}
      </div>
      <p className="field-hint">
        PNG, JPEG, WebP, GIF or SVG, up to 5 MB, at least 192 × 192 pixels; square looks best.
      </p>
    </div>
  );
}
