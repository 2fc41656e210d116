import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { retryServerFaults } from '../../../lib/query-retry.ts';
import {
  addContactListMember,
  createContactList,
  deleteContactList,
  getContactListMembers,
  getContactLists,
  getCustomerContactLists,
  removeContactListMember,
  renameContactList,
} from '../api/contact-lists.ts';

/*
 * Contact lists are server state (TanStack Query), not a replicated collection: staff devices
 * are at RxDB's collection limit, and lists are managed online. Every change refreshes every
 * contact-list query of the organisation (lists, members, a customer's lists) once it is done.
 */

const rootKey = (orgId: string | null) => ['contact-lists', orgId] as const;

function useOrgId(): string | null {
  return useSignedInUser().org?.id ?? null;
}

/** The organisation's lists with member counts, by name. */
export function useContactLists() {
  const orgId = useOrgId();
  return useQuery({
    queryKey: [...rootKey(orgId), 'all'],
    queryFn: ({ signal }) => getContactLists(signal),
    retry: retryServerFaults,
  });
}

/** One list and its members (null: no list chosen). */
export function useContactListMembers(listId: string | null) {
  const orgId = useOrgId();
  return useQuery({
    queryKey: [...rootKey(orgId), 'members', listId],
    queryFn: ({ signal }) => getContactListMembers(listId ?? '', signal),
    enabled: listId !== null,
    retry: retryServerFaults,
  });
}

/** The lists one customer is on (the profile). */
export function useCustomerContactLists(userId: string) {
  const orgId = useOrgId();
  return useQuery({
    queryKey: [...rootKey(orgId), 'customer', userId],
    queryFn: ({ signal }) => getCustomerContactLists(userId, signal),
    retry: retryServerFaults,
  });
}

/** Every change to contact lists, each refreshing what shows them when it is done. */
export function useContactListChanges() {
  const orgId = useOrgId();
  const queryClient = useQueryClient();
  const settled = () => queryClient.invalidateQueries({ queryKey: rootKey(orgId) });
  return {
    create: useMutation({ mutationFn: createContactList, onSettled: settled }),
    rename: useMutation({
      mutationFn: ({ id, name }: { id: string; name: string }) => renameContactList(id, name),
      onSettled: settled,
    }),
    remove: useMutation({ mutationFn: deleteContactList, onSettled: settled }),
    addMember: useMutation({
      mutationFn: ({ listId, userId }: { listId: string; userId: string }) =>
        addContactListMember(listId, userId),
      onSettled: settled,
    }),
    removeMember: useMutation({
      mutationFn: ({ listId, userId }: { listId: string; userId: string }) =>
        removeContactListMember(listId, userId),
      onSettled: settled,
    }),
  };
}
export type ContactListChanges = ReturnType<typeof useContactListChanges>;
