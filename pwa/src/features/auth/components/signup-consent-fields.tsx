import type { UseFormReturn } from 'react-hook-form';
import { signupMessages } from '@platform/schema/auth/auth.messages';
import type { SignupFormInput, SignupFormOutput } from '@platform/schema/auth/signup-form.rules';
import { CheckboxField } from './checkbox-field.tsx';
import { FormAlert } from './form-alert.tsx';

type SignupConsentFieldsProps = {
  form: UseFormReturn<SignupFormInput, unknown, SignupFormOutput>;
  cookieConsentGiven: boolean;
  /** A branded signup links to that organisation's own waiver. */
  orgId?: string | undefined;
};

/** The documents open in a new tab so the half-filled form stays put. */
function DocumentLink({ to, children }: { to: string; children: string }) {
  return (
    <a href={to} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

/** spec §5: terms always; cookies unless consent was already given (and then an alert too). */
export function SignupConsentFields({ form, cookieConsentGiven, orgId }: SignupConsentFieldsProps) {
  const { errors } = form.formState;
  return (
    <div className="auth-consents">
      <CheckboxField
        label={
          <>
            I agree to the{' '}
            <DocumentLink to="/documents/terms-of-service">terms of service</DocumentLink> and the{' '}
            <DocumentLink to={`/documents/waiver-of-liability${orgId ? `?orgId=${orgId}` : ''}`}>
              waiver of liability
            </DocumentLink>
          </>
        }
        error={errors.terms?.message}
        {...form.register('terms')}
      />
      {!cookieConsentGiven && (
        <>
          <CheckboxField
            label={
              <>
                I agree to allow cookies as described in the{' '}
                <DocumentLink to="/documents/cookies">cookie policy</DocumentLink>
              </>
            }
            error={errors.cookies?.message}
            {...form.register('cookies')}
          />
          {errors.cookies && <FormAlert>{signupMessages.cookieConsentAlert}</FormAlert>}
        </>
      )}
    </div>
  );
}
