import { createContext, useContext } from 'react';

/**
 * What the signed-in shell offers the pages inside it: a page may open the Switch accounts
 * dialog ("Use Switch accounts" on the customer home, issue 14) without knowing the shell.
 */
export type AccountActions = { openSwitchAccounts: (() => void) | null };

export const AccountActionsContext = createContext<AccountActions>({ openSwitchAccounts: null });

export function useAccountActions(): AccountActions {
  return useContext(AccountActionsContext);
}
