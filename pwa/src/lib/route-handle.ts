/** What a route says about the frame around it (its `handle`, read with useMatches). */
export type RouteHandle = {
  /** false: no 'Install app' offer on this screen. */
  installOffer?: boolean;
};
