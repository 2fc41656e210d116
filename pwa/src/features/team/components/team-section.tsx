import { useRef, useState } from 'react';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { teamMessages } from '@platform/schema/team/team.messages';
import type { TeamMember } from '@platform/schema/team/team.zod';
import { NetworkError } from '../../../lib/api.ts';
import { useCurrentUser, useSignedInUser } from '../../../lib/current-user.ts';
import { useTeam, useTeamChanges } from '../hooks/use-team.ts';
import { ChangeMemberDialog } from './change-member-dialog.tsx';
import { InvitationList } from './invitation-list.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { MemberList } from './member-list.tsx';
import { RemoveMemberDialog } from './remove-member-dialog.tsx';
import '../team.css';

type Open = { kind: 'invite' } | { kind: 'change' | 'remove'; member: TeamMember } | null;

/**
 * Organization → Team (claim manage-org-staff, issue 14): who works here and what each may do,
 * the invitations waiting, and each member's kiosk PIN status. Server state: TanStack Query.
 */
export function TeamSection() {
  const user = useSignedInUser();
  const { refresh } = useCurrentUser();
  const orgId = user.org?.id ?? '';
  const team = useTeam(orgId);
  const changes = useTeamChanges(orgId);
  const [open, setOpen] = useState<Open>(null);
  const inviteButton = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(null);
  // Dates as the organisation writes them, in its zone (decision 0051), not the browser's way.
  const formatDate = orgFormat(user.org?.timezone).dateOf;
  // Changing or removing oneself changes the shell (navigation, this very page).
  const afterOwnChange = (member: TeamMember) => member.isYou && void refresh();

  return (
    <section className="card team-section" aria-labelledby="team-heading">
      <div className="team-heading">
        <h2 id="team-heading">Team</h2>
        <button
          ref={inviteButton}
          type="button"
          className="button"
          onClick={() => setOpen({ kind: 'invite' })}
        >
          Invite to the team
        </button>
      </div>
      {team.isPending ? (
        <p className="team-muted" role="status">
          Loading the team…
        </p>
      ) : team.isError ? (
        <div role="alert" className="form-error">
          <p>
            {team.error instanceof NetworkError
              ? 'You are offline. The team needs a connection.'
              : 'The team could not be loaded.'}
          </p>
          <button type="button" className="button button-small" onClick={() => void team.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <MemberList
            members={team.data.members}
            onChange={(member) => setOpen({ kind: 'change', member })}
            onRemove={(member) => setOpen({ kind: 'remove', member })}
          />
          {team.data.members.length <= 1 && (
            <p className="team-empty">
              {teamMessages.emptyTeam}. Invite the people you work with: each gets an email with a
              link to join.
            </p>
          )}
          {team.data.invitations.length > 0 && (
            <>
              <h3 className="team-subheading">Invitations waiting</h3>
              <InvitationList
                invitations={team.data.invitations}
                changes={changes}
                formatDate={formatDate}
              />
            </>
          )}
        </>
      )}
      <InviteDialog
        open={open?.kind === 'invite'}
        onOpenChange={(next) => setOpen(next ? { kind: 'invite' } : null)}
        grantable={user.claims}
        invite={changes.invite}
      />
      {open?.kind === 'change' && (
        <ChangeMemberDialog
          member={open.member}
          onClose={close}
          grantable={user.claims}
          change={changes.change}
          onChanged={afterOwnChange}
        />
      )}
      {open?.kind === 'remove' && (
        <RemoveMemberDialog
          member={open.member}
          orgLabel={user.org?.label ?? 'the organization'}
          onClose={close}
          remove={changes.remove}
          returnFocusTo={inviteButton}
          onRemoved={afterOwnChange}
        />
      )}
    </section>
  );
}
