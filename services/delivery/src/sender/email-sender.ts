import { isIP } from 'node:net';
import type { EmailTransportParameters } from '@formcast/contracts';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { addressVerdict } from '../domain/address-policy';
import { systemResolver, type Resolver } from './address-guard';

export interface OutgoingEmail {
  from: { name: string | null; address: string };
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  attachment: { fileName: string; contentType: string; bytes: Buffer } | null;
  /** Images beside the text (text_format.include_images), each with its Content-ID (an HTML body shows them by it). */
  images?: Array<{ fileName: string; contentType: string; bytes: Buffer; cid: string }>;
  /** The delivery's webhook id, as the Message-ID's left part: every attempt of a delivery sends the same message. */
  messageId: string;
}

/** What the SMTP server said: the reply code and text of the last step, or why none came. */
export interface EmailAnswer {
  statusCode: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
  /** Recipients the server refused for good (a 5xx to RCPT TO): the bounce list takes them. */
  refused?: string[];
}

/** The recipients of a send refused with a 5xx, from nodemailer's `rejectedErrors`. */
function refusedForGood(rejectedErrors: unknown): string[] {
  if (!Array.isArray(rejectedErrors)) return [];
  return rejectedErrors.flatMap((error: { recipient?: unknown; responseCode?: unknown }) =>
    typeof error.recipient === 'string' && typeof error.responseCode === 'number' && error.responseCode >= 500 && error.responseCode < 600 ? [error.recipient] : [],
  );
}

export interface EmailSenderOptions {
  timeoutMs: number;
  /** DELIVERY_SMTP_URL: the deployment's server, for destinations that name none. */
  defaultSmtpUrl?: string;
  allowPrivateNetworks: boolean;
  resolve?: Resolver;
}

const authMethods = { plain: 'PLAIN', login: 'LOGIN', cram_md5: 'CRAM-MD5' } as const;

/** The reply code at the start of an SMTP answer (`250 2.0.0 Ok: queued`), or null. */
export function replyCode(response: string | undefined): number | null {
  const match = /^(\d{3})[ -]/.exec(response ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * nodemailer, loaded at the first email sent: a process with no email destination never loads
 * it (~5 MB of RSS measured in the embedded process). `require`, as the Mongo adapters are
 * loaded, so jest (running the `.ts` sources) resolves it too.
 */
function loadNodemailer(): typeof import('nodemailer') {
  return require('nodemailer') as typeof import('nodemailer');
}

/**
 * Sends email with nodemailer: to the destination's own SMTP server (`via_custom_smtp`),
 * whose address passes the same address policy as webhooks (its name resolved and
 * checked here, and the connection made to the checked address, the name kept for TLS),
 * or to the deployment's (DELIVERY_SMTP_URL, the operator's: not checked). One connection
 * per attempt, cut at the delivery timeout.
 */
export class EmailSender {
  private readonly resolve: Resolver;

  constructor(private readonly options: EmailSenderOptions) {
    this.resolve = options.resolve ?? systemResolver;
  }

  /** Whether a destination without a server of its own can send. */
  get hasDefaultServer(): boolean {
    return this.options.defaultSmtpUrl !== undefined;
  }

  async send(parameters: EmailTransportParameters, email: OutgoingEmail): Promise<EmailAnswer> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    let transport;
    try {
      transport = loadNodemailer().createTransport(await this.transportOptions(parameters));
    } catch (error) {
      return { statusCode: null, responseBody: null, error: (error as Error).message, durationMs: took() };
    }
    try {
      const info = await transport.sendMail({
        from: email.from.name ? { name: email.from.name, address: email.from.address } : email.from.address,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html === null ? {} : { html: email.html }),
        messageId: `<${email.messageId}@formcast>`,
        attachments: [
          ...(email.attachment ? [{ filename: email.attachment.fileName, contentType: email.attachment.contentType, content: email.attachment.bytes }] : []),
          ...(email.images ?? []).map((image) => ({ filename: image.fileName, contentType: image.contentType, content: image.bytes, cid: image.cid })),
        ],
      });
      return { statusCode: replyCode(info.response), responseBody: info.response.slice(0, 1024), error: null, durationMs: took(), refused: refusedForGood((info as { rejectedErrors?: unknown }).rejectedErrors) };
    } catch (error) {
      const failure = error as Error & { responseCode?: number; response?: string; code?: string; rejectedErrors?: unknown };
      return {
        refused: refusedForGood(failure.rejectedErrors),
        statusCode: failure.responseCode ?? replyCode(failure.response),
        responseBody: failure.response ? failure.response.slice(0, 1024) : null,
        error: `${failure.code ? `${failure.code}: ` : ''}${failure.message}`.slice(0, 1024),
        durationMs: took(),
      };
    } finally {
      transport.close();
    }
  }

  private async transportOptions(parameters: EmailTransportParameters): Promise<SMTPTransport.Options> {
    const timeouts = { connectionTimeout: this.options.timeoutMs, greetingTimeout: this.options.timeoutMs, socketTimeout: this.options.timeoutMs };
    if (!parameters.via_custom_smtp) {
      if (!this.options.defaultSmtpUrl) throw new Error('this deployment has no SMTP server (DELIVERY_SMTP_URL) and the destination names none');
      const url = new URL(this.options.defaultSmtpUrl);
      return {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 25,
        secure: url.protocol === 'smtps:',
        ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
        ...timeouts,
      };
    }
    const host = parameters.smtp_address!.replace(/^\[|\]$/g, '');
    const address = await this.allowedAddress(host);
    // encryption (the product's setting beside use_tls): 1 TLS from the start (implicit, port
    // 465 by default), 2 STARTTLS required; 0 or none: as use_tls says.
    const implicitTls = parameters.encryption === 1;
    const startTls = parameters.encryption === 2;
    const port = parameters.smtp_port ?? (parameters.use_tls || implicitTls ? 465 : startTls ? 587 : 25);
    const secure = implicitTls || (parameters.use_tls === true && port === 465 && !startTls);
    const auth =
      parameters.auth_scheme !== 'none' && parameters.username
        ? { auth: { user: parameters.username, pass: parameters.password ?? '' }, ...(parameters.auth_scheme ? { authMethod: authMethods[parameters.auth_scheme] } : {}) }
        : {};
    return {
      host: address,
      port,
      secure,
      // use_tls on another port: STARTTLS, required.
      requireTLS: !secure && (startTls || parameters.use_tls === true),
      ...(isIP(host) ? {} : { tls: { servername: host } }),
      ...auth,
      ...timeouts,
    };
  }

  /** The address to connect to: `host`'s first, when the address policy allows every one it has. */
  private async allowedAddress(host: string): Promise<string> {
    const addresses = isIP(host) ? [host] : (await this.resolve(host, 0)).map((entry) => entry.address);
    if (addresses.length === 0) throw new Error(`${host} does not resolve`);
    for (const address of addresses) {
      const verdict = addressVerdict(address, this.options.allowPrivateNetworks);
      if (!verdict.allowed) throw new Error(`smtp_address: ${address === host ? verdict.reason : `${host} resolves to ${verdict.reason}`}`);
    }
    return addresses[0]!;
  }
}
