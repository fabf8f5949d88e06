import nodemailer, { type Transporter } from 'nodemailer';

export interface MailChannel {
  send(to: string, subject: string, text: string): Promise<void>;
  close(): void;
}

/** Email through SMTP (nodemailer). smtpUrl as nodemailer takes it, e.g. smtp://user:pass@host:587 or smtps://host:465. */
export function mailChannel(smtpUrl: string, from: string): MailChannel {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from, to, subject, text });
    },
    close() {
      transport.close();
    },
  };
}
