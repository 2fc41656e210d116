// Texts of the notifications feature. spec §8 says only that a refused permission is logged;
// every other text here is ours (the spec is silent). Tests assert them exactly.

export const notificationMessages = {
  turnOn: 'Turn on notifications',
  turningOn: 'Turning on…',
  on: 'Notifications are on',
  blocked:
    'Notifications are blocked for this site. Allow them in your browser’s site settings, then try again.',
  unsupported:
    'This browser cannot show notifications. On iPhone and iPad, add the app to your Home Screen first.',
  unavailable: 'Notifications are not set up on this server.',
  failed: 'We could not turn on notifications. Please try again.',
  /** spec §8 Notification permission refused: only logged (console.warn), never shown. */
  permissionRefusedLog: 'Notification permission refused',
  afterInstallOffer: 'Get a notification when something needs you.',
  notNow: 'Not now',

  sendTest: 'Send a test notification',
  sendingTest: 'Sending…',
  testSent: 'Test notification sent.',
  testRecorded: 'Test notification recorded: this server only records notifications.',
  testNoDevices:
    'Turn on notifications on this device first: none of your devices receives them yet.',
  testFailed: 'The test notification could not be delivered.',
  testTitle: 'Test notification',
  testBody: 'Notifications reach this device.',

  /** A push whose payload we cannot read still shows something (browsers require it). */
  fallbackTitle: 'You have a new notification',

  webPushKeysRequired: 'A Web Push subscription needs its p256dh and auth keys.',
  webPushEndpoint: 'A Web Push subscription needs an https:// endpoint.',
  unknownPushService: 'This push service is not supported.',
} as const;
