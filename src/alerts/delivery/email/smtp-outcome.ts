import type { SendOutcome } from '../send-outcome.js';

/** What nodemailer's error carries of the server's answer. */
interface SmtpFailure {
  message?: string;
  code?: string;
  /** The system error under nodemailer's own code (ECONNREFUSED under ESOCKET). */
  originalCode?: string;
  responseCode?: number;
  response?: string;
}

/** The server accepted the message (250 after DATA): its answer, as alert:test prints it. */
export function acceptedBy(response: string): SendOutcome {
  const status = Number(/^\d{3}/.exec(response)?.[0] ?? 250);
  return { kind: 'delivered', status, answer: response };
}

/**
 * How a refused send ends (docs/alerts.md#email): a permanent answer (5xx: no such mailbox, message
 * refused, authentication refused) fails at once; a transient one (4xx: mailbox busy, greylisting,
 * too many connections), 503 (commands out of sequence: RFC 5321 §4.2.1 says nothing of the message)
 * and no answer at all (no connection, TLS failure, a timeout) are tried again by the usual backoff.
 */
export function outcomeOfSmtpFailure(error: unknown): SendOutcome {
  const failure = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SmtpFailure;
  const status = failure.responseCode;
  const answer = failure.response;
  if (status !== undefined && status >= 500 && status < 600 && status !== 503)
    return { kind: 'failed', reason: `SMTP ${status}`, status, answer };
  if (status !== undefined) return { kind: 'retry', reason: `SMTP ${status}`, status, answer };
  const reason =
    failure.code === 'ETIMEDOUT' || failure.code === 'EABORT'
      ? 'timed out'
      : (failure.originalCode ?? failure.code ?? failure.message ?? 'no answer');
  return { kind: 'retry', reason, answer };
}
