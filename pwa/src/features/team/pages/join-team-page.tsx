import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { teamMessages } from '@platform/schema/team/team.messages';
import { claimLabel, roles } from '@platform/schema/team/team.rules';
import { TEAM_INVITATION_PATH, type TeamInvitationPreview } from '@platform/schema/team/team.zod';
import { safeRedirectPath } from '@platform/schema/auth/redirect.rules';
import { PageLoading } from '../../../components/page-loading.tsx';
import { NetworkError } from '../../../lib/api.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import {
  acceptTeamInvitation,
  declineTeamInvitation,
  previewTeamInvitation,
} from '../api/team-invitation.ts';
import { failureText } from '../../../lib/request-failure.ts';
import '../team.css';

const withQuery = (path: string, values: Record<string, string>) =>
  `${path}?${new URLSearchParams(values).toString()}`;

/**
 * /join-team?token=… — the page an emailed team invitation opens, for anyone holding the link:
 * the organisation and the role, then, by who is signed in, sign in or create an account (the
 * address filled in, back here after), Join / Decline, or "this is not your invitation".
 */
export function JoinTeamPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const preview = useQuery({
    queryKey: ['team-invitation', token],
    queryFn: ({ signal }) => previewTeamInvitation(token, signal),
    enabled: token.length >= 16,
    retry: false,
  });

  let body;
  if (token.length < 16) body = <p role="alert">{teamMessages.invitationInvalid}</p>;
  else if (preview.isPending) body = <PageLoading label="Loading the invitation…" />;
  else if (preview.isError)
    body = (
      <p role="alert" className="form-error">
        {preview.error instanceof NetworkError
          ? 'You are offline. Opening the invitation needs a connection.'
          : teamMessages.invitationInvalid}
      </p>
    );
  else body = <Invitation invitation={preview.data} token={token} />;

  return (
    <section className="page join-team" aria-labelledby="join-team-heading">
      <h1 id="join-team-heading">
        {preview.data ? `Join the team of ${preview.data.orgLabel}` : 'Team invitation'}
      </h1>
      {body}
    </section>
  );
}

function Invitation({ invitation, token }: { invitation: TeamInvitationPreview; token: string }) {
  return (
    <div className="card">
      <p>
        {invitation.invitedBy ?? 'Someone'} invited <strong>{invitation.email}</strong> to work in{' '}
        {invitation.orgLabel}
        {invitation.role && (
          <>
            {' '}
            as <strong>{roles[invitation.role].label}</strong>
          </>
        )}
        .
      </p>
      <p>You will be able to:</p>
      <ul className="join-team-claims">
        {invitation.claims.map((claim) => (
          <li key={claim}>{claimLabel(claim)}</li>
        ))}
      </ul>
      <Answer invitation={invitation} token={token} />
    </div>
  );
}

function Answer({ invitation, token }: { invitation: TeamInvitationPreview; token: string }) {
  const current = useCurrentUser();
  const [declined, setDeclined] = useState(false);
  const here = `${TEAM_INVITATION_PATH}?${new URLSearchParams({ token }).toString()}`;
  const join = useMutation({
    mutationFn: () => acceptTeamInvitation(token),
    // A full load: the app starts again in the organisation's view with the new session.
    onSuccess: (joined) =>
      window.location.assign(safeRedirectPath(joined.redirectTo, '/dashboard')),
  });
  const decline = useMutation({
    mutationFn: () => declineTeamInvitation(token),
    onSuccess: () => setDeclined(true),
  });

  if (current.status === 'loading') return <PageLoading label="Loading your account…" />;
  if (current.status !== 'signed-in')
    return (
      <>
        <p>Sign in with {invitation.email} to join, or create an account with that address.</p>
        <div className="button-row">
          <Link
            className="button"
            to={withQuery('/auth/login', { redirectTo: here, verifiedEmail: invitation.email })}
          >
            Sign in
          </Link>
          <Link
            className="button button-secondary"
            to={withQuery('/auth/signup', {
              email: invitation.email,
              preventOrgFields: 'true',
              redirectTo: here,
            })}
          >
            Create an account
          </Link>
        </div>
      </>
    );

  const signedInAs = current.user.email ?? current.user.fullName;
  if (current.user.email?.toLowerCase() !== invitation.email)
    return (
      <>
        <p role="alert" className="form-error">
          {teamMessages.otherAccount(invitation.email, signedInAs)}
        </p>
        <p>
          <a href="/auth/logout">Sign out</a>
        </p>
      </>
    );
  if (declined) return <p role="status">{teamMessages.declined}</p>;

  const failure = join.error ?? decline.error;
  const busy = join.isPending || decline.isPending || join.isSuccess;
  return (
    <>
      <p>You are signed in as {signedInAs}.</p>
      {failure && (
        <p role="alert" className="form-error">
          {failureText(failure, join.error ? 'Joining' : 'Declining')}
        </p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-busy={join.isPending || join.isSuccess || undefined}
          onClick={() => join.mutate()}
        >
          {join.isPending || join.isSuccess ? 'Joining…' : `Join ${invitation.orgLabel}`}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => decline.mutate()}
        >
          Decline
        </button>
      </div>
    </>
  );
}
