import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { escapeHtml } from '../web/escape-html.ts';

export function passwordResetEmail(to: string, link: string): OutgoingEmail {
  return {
    to,
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your account.',
      '',
      `Choose a new password within the next hour: ${link}`,
      '',
      'If this was not you, ignore this email; your password stays as it is.',
    ].join('\n'),
    html: [
      '<p>Someone asked to reset the password of your account.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a> within the next hour.</p>`,
      '<p>If this was not you, ignore this email; your password stays as it is.</p>',
    ].join('\n'),
  };
}
