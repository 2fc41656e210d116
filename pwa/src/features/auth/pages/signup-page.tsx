import { Link, useSearchParams } from 'react-router';
import { readAuthQuery, withQuery } from '../auth-query.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { SignupFlow } from '../components/signup-flow.tsx';
import { TestimonialPanel } from '../components/testimonial-panel.tsx';

/** spec §2 /auth/signup: preventOrgFields, redirectTo, orgId, and email for an invitation. */
export function SignupPage() {
  const [params] = useSearchParams();
  const query = readAuthQuery(params);
  const invitedEmail = params.get('email')?.trim() ?? '';
  // A branded app (orgId) is always the customer flow, without the testimonials.
  const branded = query.orgId !== undefined;
  const skipAccountType = invitedEmail !== '' || query.preventOrgFields || branded;
  return (
    <AuthCard title="Create your account" aside={branded ? undefined : <TestimonialPanel />}>
      <SignupFlow query={query} invitedEmail={invitedEmail} skipAccountType={skipAccountType} />
      <p className="auth-card__footer">
        <Link to={withQuery('/auth/login', { orgId: query.orgId, redirectTo: query.redirectTo })}>
          Already have an account? Log in
        </Link>
      </p>
    </AuthCard>
  );
}
