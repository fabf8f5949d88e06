import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on an ephemeral local port for the tests of the mail channel (notification
 * rules, scheduled reports, reports by mail): every message is handed to `onMail` with its envelope
 * recipients and raw text once received. `url` is what SMTP_URL would be.
 */
export async function startSmtpServer(onMail: (to: string[], raw: string) => void): Promise<{ url: string; close(): Promise<void> }> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        onMail(
          session.envelope.rcptTo.map((r) => r.address),
          Buffer.concat(chunks).toString('utf8'),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}

/** The token of the link in a mail (`?token=…`), its quoted-printable soft line breaks and `=3D` undone. */
export function linkToken(raw: string): string | undefined {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return /[?&]token=([\w-]+)/.exec(text)?.[1];
}
