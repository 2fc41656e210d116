import nodemailer from 'nodemailer';
import { emailOutbox } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import type { Mailer, OutgoingEmail } from './port.ts';

/** Production: nodemailer over SMTP; every message is also kept in the outbox with its status. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp';
  private readonly transport;
  constructor(
    private readonly db: Db,
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(email: OutgoingEmail): Promise<void> {
    const base = {
      orgId: email.orgId ?? null,
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html ?? null,
    };
    try {
      await this.transport.sendMail({ from: this.from, to: email.to, subject: email.subject, text: email.text, html: email.html });
      await this.db.insert(emailOutbox).values({ ...base, status: 'sent', sentAt: new Date() });
    } catch (error) {
      await this.db.insert(emailOutbox).values({ ...base, status: 'failed', error: String(error) });
      throw error;
    }
  }
}
