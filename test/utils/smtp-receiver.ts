import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  /** The envelope's sender and recipients, as the client gave them. */
  mailFrom: string;
  rcptTo: string[];
  /** Whether the session was upgraded with STARTTLS (or was TLS from the start). */
  secure: boolean;
  mail: ParsedMail;
}

/** An SMTP answer the test makes the server give to a message (451: try later; 550: refused). */
export interface SmtpRefusal {
  code: number;
  text: string;
}

/**
 * A real SMTP server on an ephemeral port (the `smtp-server` package), as a mail provider would run
 * one: authentication required (user `alerts`, password `smtp-secret-pw`), over plain text here
 * unless `tls` says otherwise (STARTTLS offered, or TLS from the start, with the package's own
 * self-signed certificate). It keeps each accepted message, parsed with `mailparser`, and refuses
 * a message with `refusal` while that is set.
 */
export class SmtpReceiver {
  static readonly user = 'alerts';
  static readonly password = 'smtp-secret-pw';
  readonly received: ReceivedEmail[] = [];
  /** Every DATA the server was given, accepted or refused. */
  attempts = 0;
  refusal: SmtpRefusal | null = null;
  private server?: SMTPServer;
  private port = 0;

  constructor(private readonly tls: 'none' | 'starttls' | 'implicit' = 'none') {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      secure: this.tls === 'implicit',
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: this.tls === 'none' ? ['STARTTLS'] : [],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === SmtpReceiver.user && auth.password === SmtpReceiver.password) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
      },
      onData: (stream, session, callback) => {
        this.attempts++;
        simpleParser(stream)
          .then((mail) => {
            if (this.refusal) {
              callback(Object.assign(new Error(this.refusal.text), { responseCode: this.refusal.code }));
              return;
            }
            this.received.push({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcptTo: session.envelope.rcptTo.map((recipient) => recipient.address),
              secure: session.secure,
              mail,
            });
            callback(null, 'Accepted: queued as test');
          })
          .catch((error: Error) => callback(error));
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The SMTP_URL of this server; with TLS the client is told to accept the self-signed certificate
   * (a query option nodemailer reads from the URL).
   */
  url(password = SmtpReceiver.password): string {
    const scheme = this.tls === 'implicit' ? 'smtps' : 'smtp';
    const query = this.tls === 'none' ? '' : '?tls.rejectUnauthorized=false';
    return `${scheme}://${SmtpReceiver.user}:${password}@127.0.0.1:${this.port}${query}`;
  }
}
