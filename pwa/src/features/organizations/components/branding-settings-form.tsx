import { ThemeColourCheck } from './theme-colour-check.tsx';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  brandingMessages,
  brandingSettingsSchema,
  SHORT_NAME_MAX,
  type BrandingSettings,
  type BrandingSettingsInput,
  type BrandingSettingsResponse,
} from '@platform/schema/branding/branding.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import { NetworkError } from '../../../lib/api.ts';
import { saveBrandingSettings } from '../api/branding.ts';

const fieldNames = ['appName', 'shortName', 'themeColor', 'backgroundColor', 'timezone'] as const;

function timeZones(current: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/** App name, short name, colours and time zone of the organisation's customer app. */
export function BrandingSettingsForm({
  settings,
  onSaved,
}: {
  settings: BrandingSettingsResponse;
  onSaved: (settings: BrandingSettingsResponse) => void;
}) {
  const toast = useToast();
  const zones = useMemo(() => timeZones(settings.timezone), [settings.timezone]);
  const {
    register,
    handleSubmit,
    setError,
    control,
    setValue,
    formState: { errors, isSubmitting, isDirty },
    reset,
  } = useForm<BrandingSettingsInput, unknown, BrandingSettings>({
    resolver: zodResolver(brandingSettingsSchema),
    defaultValues: {
      appName: settings.appName,
      shortName: settings.shortName,
      themeColor: settings.themeColor,
      backgroundColor: settings.backgroundColor,
      timezone: settings.timezone,
    },
  });

  const [themeColor, backgroundColor, appName] = useWatch({
    control,
    name: ['themeColor', 'backgroundColor', 'appName'],
  });
  const colours = { themeColor, backgroundColor };

  const submit = handleSubmit(async (values) => {
    try {
      const outcome = await saveBrandingSettings(settings.orgId, values);
      if (!outcome.ok) {
        for (const error of outcome.errors) {
          const field = fieldNames.find((name) => name === error.field) ?? 'root';
          setError(field, { message: error.message });
        }
        return;
      }
      reset(values);
      onSaved(outcome.settings);
      toast.success(brandingMessages.saved);
    } catch (error) {
      setError('root', {
        message:
          error instanceof NetworkError
            ? 'You are offline. Saving the branding needs a connection.'
            : 'The branding could not be saved. Please try again.',
      });
    }
  });

  const errorProps = (name: (typeof fieldNames)[number]) =>
    errors[name]
      ? { 'aria-invalid': true as const, 'aria-describedby': `branding-${name}-error` }
      : {};
  const fieldError = (name: (typeof fieldNames)[number]) =>
    errors[name] && (
      <p id={`branding-${name}-error`} className="field-error">
        {errors[name]?.message}
      </p>
    );
  const colourField = (name: 'themeColor' | 'backgroundColor', label: string, hint: string) => {
    const value = colours[name];
    return (
      <div className="field">
        <label htmlFor={`branding-${name}`}>{label}</label>
        <div className="colour-field">
          <input
            type="color"
            aria-label={`${label} picker`}
            value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'}
            onChange={(event) =>
              setValue(name, event.target.value, { shouldDirty: true, shouldValidate: true })
            }
          />
          <input
            id={`branding-${name}`}
            spellCheck={false}
            {...errorProps(name)}
            {...register(name)}
          />
        </div>
        <p className="field-hint">{hint}</p>
        {fieldError(name)}
      </div>
    );
  };

  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      {errors.root && (
        <p className="form-error" role="alert">
          {errors.root.message}
        </p>
      )}
      <div className="field">
        <label htmlFor="branding-appName">App name</label>
        <input id="branding-appName" {...errorProps('appName')} {...register('appName')} />
        {fieldError('appName')}
      </div>
      <div className="field">
        <label htmlFor="branding-shortName">Short name</label>
        <input
          id="branding-shortName"
          maxLength={SHORT_NAME_MAX + 10}
          {...errorProps('shortName')}
          {...register('shortName')}
        />
        <p className="field-hint">
          Shown under the home-screen icon; up to {SHORT_NAME_MAX} characters.
        </p>
        {fieldError('shortName')}
      </div>
      {colourField('themeColor', 'Theme colour', 'The app bar and buttons.')}
      <ThemeColourCheck
        colour={themeColor}
        appName={appName}
        onUse={(colour) =>
          setValue('themeColor', colour, { shouldDirty: true, shouldValidate: true })
        }
      />
      {colourField(
        'backgroundColor',
        'Background colour',
        'The splash screen and behind round icons.',
      )}
      <div className="field">
        <label htmlFor="branding-timezone">Time zone</label>
        <select id="branding-timezone" {...errorProps('timezone')} {...register('timezone')}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        <p className="field-hint">Bookings and time sheets are shown in this time zone.</p>
        {fieldError('timezone')}
      </div>
      <div className="button-row">
        <button type="submit" className="button" disabled={isSubmitting || !isDirty}>
          {isSubmitting ? 'Saving…' : 'Save branding'}
        </button>
      </div>
    </form>
  );
}
