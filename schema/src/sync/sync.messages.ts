/** What a push refusal says, in words both sides share (the device acts on some of them). */
export const syncMessages = {
  /**
   * A row names a document the pusher cannot see: one of another organisation or person, or
   * one the server does not have (never created, or removed). One answer for all of them, so
   * a push cannot tell which (decision 0048); the device then drops its copy.
   */
  notAmongYours: 'There is no such document among yours.',
} as const;
