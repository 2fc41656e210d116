import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { SIGNUP_REDIRECT_DELAY_MS } from '@platform/schema/app/constants';
import { afterSignupPath, safeRedirectPath } from '@platform/schema/auth/redirect.rules';
import {
  companyInfoSchema,
  emptySignupForm,
  signupFormSchema,
  toSignupDto,
  type AccountType,
  type CompanyInfo,
  type SignupFormInput,
  type SignupFormOutput,
} from '@platform/schema/auth/signup-form.rules';
import {
  readCookieConsent,
  setCookieConsent,
  useCookieConsent,
} from '../../../lib/cookie-consent.ts';
import { createAccount, type SignupOutcome } from '../api/create-account.ts';
import type { AuthQuery } from '../auth-query.ts';
import type { SubmitState } from '../components/submit-button.tsx';

export type SignupFailure = Exclude<SignupOutcome, { kind: 'created' }>;

// Consent can change while the form is open (the cookie banner), so the rule reads it at
// validation time rather than when the form was made.
const detailsResolver: Resolver<SignupFormInput, unknown, SignupFormOutput> = (
  values,
  context,
  options,
) =>
  zodResolver(signupFormSchema({ cookieConsentGiven: readCookieConsent() === 'accepted' }))(
    values,
    context,
    options,
  );

/**
 * Both signup forms (spec §4 Signup submit): errors only after the first submit attempt,
 * then re-checked on change; idle → loading → confirmed, then a full load of the next page.
 */
export function useSignupForm(options: { query: AuthQuery; invitedEmail: string }) {
  const { query, invitedEmail } = options;
  const company = useForm<CompanyInfo>({
    resolver: zodResolver(companyInfoSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { companyName: '' },
  });
  const details = useForm<SignupFormInput, unknown, SignupFormOutput>({
    resolver: detailsResolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: emptySignupForm(invitedEmail),
  });
  const cookieConsentGiven = useCookieConsent() === 'accepted';
  const [submitState, setSubmitState] = useState<SubmitState>('idle');
  const [failure, setFailure] = useState<SignupFailure | null>(null);

  const { clearErrors } = details;
  useEffect(() => {
    if (cookieConsentGiven) clearErrors('cookies');
  }, [cookieConsentGiven, clearErrors]);

  const submitFor = (accountType: AccountType) =>
    details.handleSubmit(async (values) => {
      setFailure(null);
      setSubmitState('loading');
      const dto = toSignupDto(values, {
        accountType,
        companyName: company.getValues('companyName').trim(),
        ...(query.orgId ? { orgId: query.orgId } : {}),
        ...(query.redirectTo ? { redirectTo: query.redirectTo } : {}),
        ...(query.invitation ? { invitation: query.invitation } : {}),
      });
      const outcome = await createAccount(dto);
      if (outcome.kind !== 'created') {
        setFailure(outcome);
        setSubmitState('idle');
        return;
      }
      // Ticking the cookie box is the consent the banner would otherwise ask for.
      if (values.cookies) setCookieConsent('accepted');
      setSubmitState('confirmed');
      const target = safeRedirectPath(
        outcome.redirectTo,
        afterSignupPath(accountType, query.redirectTo, query.orgId),
      );
      window.setTimeout(() => window.location.assign(target), SIGNUP_REDIRECT_DELAY_MS);
    });

  return { company, details, cookieConsentGiven, submitState, failure, submitFor };
}
export type SignupFormState = ReturnType<typeof useSignupForm>;
