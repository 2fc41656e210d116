import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeMemberInput, InviteStaffInput } from '@platform/schema/team/team.zod';
import {
  cancelInvitation,
  changeMember,
  getTeam,
  inviteStaff,
  removeMember,
  resendInvitation,
} from '../api/team.ts';

/** The team is server state (not replicated): one query per organisation, refetched after each change. */
export const teamKey = (orgId: string) => ['team', orgId] as const;

export function useTeam(orgId: string) {
  return useQuery({ queryKey: teamKey(orgId), queryFn: ({ signal }) => getTeam(signal) });
}

/** Every change to the team, each refreshing the list when it is done (succeeded or not). */
export function useTeamChanges(orgId: string) {
  const queryClient = useQueryClient();
  const settled = () => queryClient.invalidateQueries({ queryKey: teamKey(orgId) });
  return {
    invite: useMutation({
      mutationFn: (input: InviteStaffInput) => inviteStaff(input),
      onSettled: settled,
    }),
    resend: useMutation({ mutationFn: resendInvitation, onSettled: settled }),
    cancel: useMutation({ mutationFn: cancelInvitation, onSettled: settled }),
    change: useMutation({
      mutationFn: ({ userId, input }: { userId: string; input: ChangeMemberInput }) =>
        changeMember(userId, input),
      onSettled: settled,
    }),
    remove: useMutation({ mutationFn: removeMember, onSettled: settled }),
  };
}
export type TeamChanges = ReturnType<typeof useTeamChanges>;
