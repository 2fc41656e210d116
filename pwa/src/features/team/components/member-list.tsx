import { roles, CUSTOM_ROLE_LABEL } from '@platform/schema/team/team.rules';
import type { TeamMember } from '@platform/schema/team/team.zod';

const roleLabel = (member: TeamMember) =>
  member.role ? roles[member.role].label : CUSTOM_ROLE_LABEL;

/** The members: name, address, role, kiosk PIN status, and the manager's two actions. */
export function MemberList({
  members,
  onChange,
  onRemove,
}: {
  members: TeamMember[];
  onChange: (member: TeamMember) => void;
  onRemove: (member: TeamMember) => void;
}) {
  return (
    <ul className="team-list" aria-label="Members">
      {members.map((member) => (
        <li key={member.userId} className="team-row">
          <div className="team-who">
            <p className="team-name">
              {member.name}
              {member.isYou && <span className="team-muted"> (you)</span>}
            </p>
            {member.email && <p className="team-muted">{member.email}</p>}
          </div>
          <dl className="team-facts">
            <div>
              <dt>Role</dt>
              <dd>{roleLabel(member)}</dd>
            </div>
            <div>
              <dt>Kiosk PIN</dt>
              <dd>{member.kioskPinSet ? 'Set' : 'Not set'}</dd>
            </div>
          </dl>
          <div className="button-row">
            <button
              type="button"
              className="button button-small button-secondary"
              onClick={() => onChange(member)}
            >
              Change role
              <span className="sr-only"> of {member.isYou ? 'yourself' : member.name}</span>
            </button>
            <button
              type="button"
              className="button button-small button-secondary"
              onClick={() => onRemove(member)}
            >
              Remove
              <span className="sr-only">
                {' '}
                {member.isYou ? 'yourself' : member.name} from the team
              </span>
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
