// spec §9 Business constants and limits — one place, used by both sides.
export const TOAST_DURATION_MS = 5000;
export const TOAST_FADE_MS = 280;
export const INSTALL_PROMPT_WAIT_MS = 500;
export const PASSWORD_MIN_LENGTH = 8;
export const SIGNUP_REDIRECT_DELAY_MS = 750;
export const SUPPORT_EMAIL = 'support@example.com';
