import type { FormEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { afterSignupPath } from '@platform/schema/auth/redirect.rules';
import type { CompanyInfo } from '@platform/schema/auth/signup-form.rules';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { GoogleButton, openGoogleLoginPage } from './google-button.tsx';
import { GoogleOption } from './google-option.tsx';
import { StepHeading } from './step-heading.tsx';
import { TextField } from './text-field.tsx';

type CompanyInfoStepProps = {
  form: UseFormReturn<CompanyInfo>;
  redirectTo: string | undefined;
  focusOnMount: boolean;
  onContinue: () => void;
  onChangeType: () => void;
};

/** spec §2 organisation flow, step 1 'Company info'. Both ways on need a company name. */
export function CompanyInfoStep({
  form,
  redirectTo,
  focusOnMount,
  onContinue,
  onChangeType,
}: CompanyInfoStepProps) {
  const register = trimmedRegister(form);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const viaGoogle = submitter instanceof HTMLButtonElement && submitter.value === 'google';
    void form.handleSubmit(({ companyName }) => {
      if (!viaGoogle) return onContinue();
      const target = afterSignupPath('organization', redirectTo);
      openGoogleLoginPage({ redirectTo: target, orgFields: { companyName } });
    })(event);
  };

  return (
    <form className="auth-form auth-step" noValidate onSubmit={onSubmit}>
      <StepHeading step="Step 1 of 2" focusOnMount={focusOnMount}>
        Company info
      </StepHeading>
      <TextField
        label="Company name"
        autoComplete="organization"
        required
        error={form.formState.errors.companyName?.message}
        {...register('companyName')}
      />
      <button type="submit" className="auth-button auth-button--primary">
        Continue
      </button>
      <GoogleOption>
        <GoogleButton label="Sign up with Google" submit />
      </GoogleOption>
      <button type="button" className="auth-button auth-button--link" onClick={onChangeType}>
        Change account type
      </button>
    </form>
  );
}
