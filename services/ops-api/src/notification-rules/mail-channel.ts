import nodemailer, { type Transporter } from 'nodemailer';

interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailChannel {
  /** Sends a mail, with files attached when given (scheduled reports). */
  send(to: string, subject: string, text: string, attachments?: MailAttachment[]): Promise<void>;
  close(): void;
}

/** Email through SMTP (nodemailer). smtpUrl as nodemailer takes it, e.g. smtp://user:pass@host:587 or smtps://host:465. */
export function mailChannel(smtpUrl: string, from: string): MailChannel {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(to, subject, text, attachments) {
      await transport.sendMail({ from, to, subject, text, ...(attachments?.length ? { attachments } : {}) });
    },
    close() {
      transport.close();
    },
  };
}
