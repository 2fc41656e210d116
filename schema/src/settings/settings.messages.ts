// The settings page's own texts (the spec names none besides the signup password rules, which
// are reused from auth.messages.ts). Tests assert them exactly.
export const settingsMessages = {
  currentPasswordRequired: 'Your current password is required.',
  currentPasswordWrong: 'Your current password is incorrect.',
  noPasswordYet:
    'You sign in without a password. Use “Forgot your password?” on the login page to set one.',
  setPasswordByEmail: 'Email me a link to set a password',
  profileSaved: 'Your profile has been saved.',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  preferencesSaved: 'Your notification preferences have been saved.',
  offline: 'You are offline. Changing your settings needs a connection.',
  failed: 'Your changes could not be saved. Please try again.',
  loadFailed: 'Your settings could not be loaded.',
} as const;
