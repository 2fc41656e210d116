import { z } from 'zod';
import { claims } from '../organizations/claims.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { teamMessages } from './team.messages.ts';
import { normaliseClaims, roleIds } from './team.rules.ts';

const claimListSchema = z
  .array(z.enum(claims))
  .max(claims.length * 2)
  .transform(normaliseClaims)
  .refine((list) => list.length > 0, teamMessages.noClaims);

/** POST /api/team/invitations (manage-org-staff, the session's organisation). */
export const inviteStaffInputSchema = z.object({
  email: z.string().trim().max(320).pipe(z.email(teamMessages.invalidEmail)),
  claims: claimListSchema,
});
export type InviteStaffInput = z.infer<typeof inviteStaffInputSchema>;
export type InviteStaffForm = z.input<typeof inviteStaffInputSchema>;

/** PUT /api/team/members/{userId}: the member's claims from now on. */
export const changeMemberInputSchema = z.object({ claims: claimListSchema });
export type ChangeMemberInput = z.infer<typeof changeMemberInputSchema>;

export const teamMemberSchema = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  claims: z.array(z.enum(claims)),
  /** null: the claims match no role ("Custom"). */
  role: z.enum(roleIds).nullable(),
  /** Whether the member has a kiosk PIN (never the PIN). */
  kioskPinSet: z.boolean(),
  isYou: z.boolean(),
  joinedAt: isoTimeSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const pendingTeamInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  claims: z.array(z.enum(claims)),
  role: z.enum(roleIds).nullable(),
  invitedBy: z.string().nullable(),
  sentAt: isoTimeSchema,
  expiresAt: isoTimeSchema,
  expired: z.boolean(),
});
export type PendingTeamInvitation = z.infer<typeof pendingTeamInvitationSchema>;

/** GET /api/team: the members (oldest first) and the invitations not yet answered. */
export const teamResponseSchema = z.object({
  members: z.array(teamMemberSchema),
  invitations: z.array(pendingTeamInvitationSchema),
});
export type TeamResponse = z.infer<typeof teamResponseSchema>;

/** The emailed token: the only thing that opens a team invitation (never the address alone). */
export const teamInvitationTokenInputSchema = z.object({ token: z.string().min(16).max(200) });
export type TeamInvitationTokenInput = z.infer<typeof teamInvitationTokenInputSchema>;

/** POST /api/team-invitations/preview (public): what the link's page shows. */
export const teamInvitationPreviewSchema = z.object({
  orgId: z.uuid(),
  orgLabel: z.string(),
  email: z.string(),
  claims: z.array(z.enum(claims)),
  role: z.enum(roleIds).nullable(),
  invitedBy: z.string().nullable(),
});
export type TeamInvitationPreview = z.infer<typeof teamInvitationPreviewSchema>;

/** POST /api/team-invitations/accept: the session is now the organisation's; go there. */
export const joinedTeamSchema = z.object({
  orgId: z.uuid(),
  orgLabel: z.string(),
  redirectTo: z.string(),
});
export type JoinedTeam = z.infer<typeof joinedTeamSchema>;

/** The public page the emailed link opens. */
export const TEAM_INVITATION_PATH = '/join-team';
export const teamInvitationPath = (token: string) =>
  `${TEAM_INVITATION_PATH}?token=${encodeURIComponent(token)}`;
