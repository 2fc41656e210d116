import { signupMessages } from '@platform/schema/auth/auth.messages';
import { afterSignupPath } from '@platform/schema/auth/redirect.rules';
import type { AccountType } from '@platform/schema/auth/signup-form.rules';
import type { SignupFormState } from '../hooks/use-signup-form.ts';
import { ChildrenFields } from './children-fields.tsx';
import { GoogleButton } from './google-button.tsx';
import { GoogleOption } from './google-option.tsx';
import { SignupAccountFields } from './signup-account-fields.tsx';
import { SignupConsentFields } from './signup-consent-fields.tsx';
import { SignupFailureAlert } from './signup-failure-alert.tsx';
import { StepHeading } from './step-heading.tsx';
import { SubmitButton } from './submit-button.tsx';

type SignupDetailsStepProps = {
  signup: SignupFormState;
  accountType: AccountType;
  emailReadOnly: boolean;
  redirectTo: string | undefined;
  /** The branded app the signup happens in: Google signup joins it too. */
  orgId?: string | undefined;
  focusOnMount: boolean;
  /** Organisation flow: back to 'Company info', keeping every answer. */
  onBack?: (() => void) | undefined;
  /** Customer flow reached through the account-type step: a way back to it. */
  onChangeType?: (() => void) | undefined;
};

/** spec §2 'Details': step 2 of the organisation flow, the only step of the customer flow. */
export function SignupDetailsStep({
  signup,
  accountType,
  emailReadOnly,
  redirectTo,
  orgId,
  focusOnMount,
  onBack,
  onChangeType,
}: SignupDetailsStepProps) {
  const { details: form, submitState, failure, cookieConsentGiven } = signup;
  const onSubmit = signup.submitFor(accountType);
  const isOrganization = accountType === 'organization';
  return (
    <>
      <form className="auth-form auth-step" noValidate onSubmit={(event) => void onSubmit(event)}>
        <StepHeading step={isOrganization ? 'Step 2 of 2' : undefined} focusOnMount={focusOnMount}>
          Details
        </StepHeading>
        <SignupAccountFields form={form} emailReadOnly={emailReadOnly} />
        {!isOrganization && <ChildrenFields form={form} />}
        <SignupConsentFields
          form={form}
          cookieConsentGiven={cookieConsentGiven}
          orgId={isOrganization ? undefined : orgId}
        />
        {failure && <SignupFailureAlert failure={failure} />}
        <div className="auth-actions">
          {onBack && (
            <button
              type="button"
              className="auth-button auth-button--secondary"
              onClick={onBack}
              disabled={submitState !== 'idle'}
            >
              Back
            </button>
          )}
          <SubmitButton
            state={submitState}
            labels={{
              idle: 'Create account',
              loading: 'Creating account…',
              confirmed: signupMessages.created,
            }}
          />
        </div>
      </form>
      {!isOrganization && (
        <GoogleOption>
          <GoogleButton
            label="Sign up with Google"
            redirectTo={afterSignupPath('customer', redirectTo, orgId)}
            orgId={orgId}
          />
        </GoogleOption>
      )}
      {onChangeType && (
        <button type="button" className="auth-button auth-button--link" onClick={onChangeType}>
          Change account type
        </button>
      )}
    </>
  );
}
