import { teamMessages } from '@platform/schema/team/team.messages';
import { Conflict, Forbidden, NotFound } from '../plugins/domain-errors.ts';

export class MemberNotFound extends NotFound {
  constructor() {
    super(teamMessages.memberNotFound);
  }
}
export class TeamInvitationNotFound extends NotFound {
  constructor() {
    super(teamMessages.invitationNotFound);
  }
}
/** The link's token names no open, live invitation (used, cancelled, expired or made up). */
export class TeamInvitationInvalid extends NotFound {
  constructor() {
    super(teamMessages.invitationInvalid);
  }
}
export class AlreadyMember extends Conflict {
  constructor() {
    super(teamMessages.alreadyMember);
  }
}
export class AlreadyInvited extends Conflict {
  constructor(invitationId: string) {
    super(teamMessages.alreadyInvited, { invitationId });
  }
}
/** 409: the change would leave nobody who can manage the team. */
export class LastTeamManager extends Conflict {
  constructor() {
    super(teamMessages.lastManager);
  }
}
export class BeyondOwnClaims extends Forbidden {
  constructor(claims: string[]) {
    super(teamMessages.beyondOwnClaims, { claims });
  }
}
export class Outranked extends Forbidden {
  constructor() {
    super(teamMessages.outranked);
  }
}
export class NotTheInvitedAccount extends Forbidden {
  constructor(invited: string, signedIn: string) {
    super(teamMessages.otherAccount(invited, signedIn));
  }
}
