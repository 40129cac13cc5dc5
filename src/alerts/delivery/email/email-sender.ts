import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../../config/app-config.js';
import type { SendOutcome } from '../send-outcome.js';
import type { EmailMessage } from './email-message.js';
import { acceptedBy, outcomeOfSmtpFailure } from './smtp-outcome.js';

/**
 * One send gives up after this long, connecting, greeting, TLS, authentication and the message
 * together: well within a claim (60 s), so that no other instance takes the notifications over
 * while this one may still be sending them.
 */
const SEND_TIMEOUT_MS = 30_000;

/**
 * Sends one message to one address through the configured SMTP server, on a connection of its own
 * (a send is at most one message a window per address: no pool to keep). nodemailer takes the URL as
 * it is: `smtp://` upgrades with STARTTLS whenever the server offers it, `smtps://` speaks TLS from
 * the start; certificates are verified.
 */
export async function sendEmail(smtp: SmtpConfig, to: string, message: EmailMessage): Promise<SendOutcome> {
  const transport = nodemailer.createTransport({
    url: smtp.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    const info = await transport.sendMail({
      from: smtp.from,
      to,
      subject: message.subject,
      text: message.text,
      messageId: message.messageId,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    return acceptedBy(info.response);
  } catch (error) {
    return outcomeOfSmtpFailure(error);
  } finally {
    transport.close();
  }
}
