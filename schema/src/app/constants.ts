// spec §9 Business constants and limits — one place, used by both sides.
export const TOAST_DURATION_MS = 5000;
export const TOAST_FADE_MS = 280;
export const INSTALL_PROMPT_WAIT_MS = 500;
export const PASSWORD_MIN_LENGTH = 8;
export const SIGNUP_REDIRECT_DELAY_MS = 750;
export const SUPPORT_EMAIL = 'support@example.com';
// spec §9's reload after child creation (10 s wait) gave way to issue 14: a toast, and the new
// rows shown in place.
/** The longest first, middle or last name stored (the replicated roster documents hold them). */
export const PERSON_NAME_MAX = 150;
/** The longest organisation name (it becomes the app name of its branded app). */
export const ORG_NAME_MAX = 120;
