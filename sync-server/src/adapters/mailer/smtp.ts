import nodemailer from 'nodemailer';
import type { MailTransport, OutgoingEmail } from './port.ts';

/** Production: nodemailer over SMTP. A refused or unreachable server throws; the job retries. */
export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp';
  readonly keepsBodies = false;
  private readonly transport;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Under the delivery job's expiry (job-definitions.ts): a stuck server fails the attempt
    // and the retry comes later, rather than one send hanging for nodemailer's ten minutes.
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
  }

  async deliver(email: OutgoingEmail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
