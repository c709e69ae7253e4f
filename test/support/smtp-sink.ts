import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** One message as the SMTP server took it: the envelope, the raw bytes, and mailparser's reading of them. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** The AUTH the client gave, if any. */
  user: string | null;
}

/** How the server answers a message, chosen by its first recipient's local part: `temp…` 451, `reject…` 550 (each first N times, or always). */
export interface SinkScript {
  /** Local part → replies, in turn; the last again and again. 250 accepts. */
  [localPart: string]: number[];
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, the nodemailer project's), for end-to-end
 * tests of email destinations: no TLS (STARTTLS not offered), AUTH PLAIN/LOGIN accepted for
 * `users`, anything else taken without AUTH. Each accepted message is recorded; a scripted
 * reply refuses it at the end of DATA with that code.
 */
export class SmtpSink {
  private readonly mails: ReceivedMail[] = [];
  private readonly replies = new Map<string, number[]>();
  private readonly tries = new Map<string, number>();
  private readonly refusedRecipients = new Set<string>();
  private readonly rcptTries = new Map<string, number>();

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(users: Record<string, string> = {}): Promise<SmtpSink> {
    let sink: SmtpSink | undefined;
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      size: 50 * 1024 * 1024,
      onAuth(auth, _session, callback) {
        if (auth.username && users[auth.username] !== undefined && users[auth.username] === auth.password) return callback(null, { user: auth.username });
        const error = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
        return callback(error);
      },
      onRcptTo(address, _session, callback) {
        const rcpt = address.address;
        sink!.rcptTries.set(rcpt, (sink!.rcptTries.get(rcpt) ?? 0) + 1);
        if (sink!.refusedRecipients.has(rcpt)) return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        return callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((address: SMTPServerAddress) => address.address);
          const code = sink!.replyFor(to[0] ?? '');
          if (code !== 250) {
            return callback(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }));
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw).then(
            (parsed) => {
              const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
              sink!.mails.push({ from, to, raw, parsed, user: typeof session.user === 'string' ? session.user : null });
              callback(null, 'Ok: queued as formcast-test');
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    sink = new SmtpSink(server, (server.server.address() as AddressInfo).port);
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Replies for messages whose first recipient has this local part. */
  script(localPart: string, replies: number[]): void {
    this.replies.set(localPart, replies);
  }

  /** Refuses `address` for good at RCPT TO (550), as a server does for a mailbox that does not exist. */
  refuseRecipient(address: string): void {
    this.refusedRecipients.add(address);
  }

  /** How many times `address` was given as a recipient (RCPT TO), refused or not. */
  recipientTries(address: string): number {
    return this.rcptTries.get(address) ?? 0;
  }

  /** Messages with `address` among their recipients, in arrival order. */
  received(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address));
  }

  /** How many messages were offered for `address` as first recipient, refused ones too. */
  offered(address: string): number {
    return this.tries.get(address) ?? 0;
  }

  private replyFor(address: string): number {
    const tries = (this.tries.get(address) ?? 0) + 1;
    this.tries.set(address, tries);
    const script = this.replies.get(address.split('@')[0] ?? '');
    if (!script || script.length === 0) return 250;
    return script[Math.min(tries, script.length) - 1]!;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
