/**
 * Sessions as the rest of the server meets them (decision 0053): the session plugin issues,
 * refreshes and checks them; replication reads the live one; team and settings end them.
 * They are used as stored, so they pass through unchanged — the table stays auth's.
 */
export {
  findLiveSession,
  insertSession,
  REFRESH_TOKEN_DAYS,
  revokeOrgViewSessions,
  revokeSession,
  revokeUserSessions,
  rotateRefreshToken,
  type NewSession,
} from './sessions.repository.ts';
