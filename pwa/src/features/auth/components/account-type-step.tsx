import type { AccountType } from '@platform/schema/auth/signup-form.rules';
import { StepHeading } from './step-heading.tsx';

const choices: { type: AccountType; title: string; body: string }[] = [
  { type: 'customer', title: 'Customer', body: 'I want to make payments or manage my account' },
  { type: 'organization', title: 'Organization', body: 'I run a business' },
];

type AccountTypeStepProps = { onChoose: (type: AccountType) => void; focusOnMount: boolean };

/** spec §2 signup, first step: which kind of account this is. */
export function AccountTypeStep({ onChoose, focusOnMount }: AccountTypeStepProps) {
  return (
    <div className="auth-step">
      <StepHeading focusOnMount={focusOnMount}>What kind of account do you need?</StepHeading>
      <ul className="auth-choices">
        {choices.map((choice) => (
          <li key={choice.type}>
            <button type="button" className="auth-choice" onClick={() => onChoose(choice.type)}>
              <span className="auth-choice__title">{choice.title}</span>
              <span className="auth-choice__body">{choice.body}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
