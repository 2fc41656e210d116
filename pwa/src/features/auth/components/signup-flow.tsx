import { useState } from 'react';
import type { AccountType } from '@platform/schema/auth/signup-form.rules';
import type { AuthQuery } from '../auth-query.ts';
import { useSignupForm } from '../hooks/use-signup-form.ts';
import { AccountTypeStep } from './account-type-step.tsx';
import { CompanyInfoStep } from './company-info-step.tsx';
import { SignupDetailsStep } from './signup-details-step.tsx';

type Step =
  | { name: 'account-type' }
  | { name: 'company-info' }
  | { name: 'details'; accountType: AccountType };

type SignupFlowProps = { query: AuthQuery; invitedEmail: string; skipAccountType: boolean };

/**
 * spec §2/§4 signup steps. Account type, then either 'Company info' → 'Details'
 * (organisation) or 'Details' alone (customer). The forms live here, so going Back keeps
 * every answer.
 */
export function SignupFlow({ query, invitedEmail, skipAccountType }: SignupFlowProps) {
  const signup = useSignupForm({ query, invitedEmail });
  const [step, setStep] = useState<Step>(
    skipAccountType ? { name: 'details', accountType: 'customer' } : { name: 'account-type' },
  );
  // Focus follows the person's own moves between steps, never the first render.
  const [moved, setMoved] = useState(false);
  const go = (next: Step) => {
    setStep(next);
    setMoved(true);
  };

  switch (step.name) {
    case 'account-type':
      return (
        <AccountTypeStep
          focusOnMount={moved}
          onChoose={(type) =>
            go(
              type === 'organization'
                ? { name: 'company-info' }
                : { name: 'details', accountType: 'customer' },
            )
          }
        />
      );
    case 'company-info':
      return (
        <CompanyInfoStep
          form={signup.company}
          redirectTo={query.redirectTo}
          focusOnMount={moved}
          onContinue={() => go({ name: 'details', accountType: 'organization' })}
          onChangeType={() => go({ name: 'account-type' })}
        />
      );
    case 'details':
      return (
        <SignupDetailsStep
          signup={signup}
          accountType={step.accountType}
          emailReadOnly={invitedEmail !== ''}
          redirectTo={query.redirectTo}
          orgId={query.orgId}
          focusOnMount={moved}
          onBack={
            step.accountType === 'organization' ? () => go({ name: 'company-info' }) : undefined
          }
          onChangeType={
            step.accountType === 'customer' && !skipAccountType
              ? () => go({ name: 'account-type' })
              : undefined
          }
        />
      );
  }
}
