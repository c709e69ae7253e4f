import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { Agent, type AgentOptions } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Credential } from 'firebase-admin/app';

/** One request FCM received: where it went, with which headers, and the message it carried. */
export interface ReceivedFcmRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body as sent: `{"message": {…}}`. */
  body: { message: Record<string, any>; validate_only?: boolean };
}

/** How the stand-in answers one request; the default is FCM's 200 with a message name. */
export interface FcmReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FcmResponder = (request: ReceivedFcmRequest) => FcmReply | undefined;

export const standInAccessToken = 'stand-in-access-token';
export const standInProjectId = 'formcast-stand-in';

/**
 * FCM's v1 error body, as Google sends it: a canonical status plus an `FcmError` detail
 * carrying the FCM error code that firebase-admin maps to `messaging/...`.
 */
export function fcmError(errorCode: 'UNREGISTERED' | 'INVALID_ARGUMENT' | 'QUOTA_EXCEEDED' | 'UNAVAILABLE' | 'INTERNAL', headers?: Record<string, string>): FcmReply {
  const shapes = {
    UNREGISTERED: [404, 'NOT_FOUND', 'Requested entity was not found.'],
    INVALID_ARGUMENT: [400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token'],
    QUOTA_EXCEEDED: [429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric'],
    UNAVAILABLE: [503, 'UNAVAILABLE', 'The service is currently unavailable.'],
    INTERNAL: [500, 'INTERNAL', 'Internal error encountered.'],
  } as const;
  const [status, canonical, message] = shapes[errorCode];
  return {
    status,
    headers,
    body: {
      error: {
        code: status,
        message,
        status: canonical,
        details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }],
      },
    },
  };
}

/**
 * An `https.Agent` whose connections lead to a local port instead of fcm.googleapis.com:
 * firebase-admin still builds `https://fcm.googleapis.com/v1/…` requests, and Node writes
 * them, unencrypted, on the socket this returns. Nothing in Node's HTTP client or in the SDK
 * requires that socket to be TLS, so no certificate is needed. `port` can be changed, e.g.
 * to a closed one for connection errors.
 */
export class LocalFcmAgent extends Agent {
  constructor(
    public port: number,
    options: AgentOptions = { keepAlive: true },
  ) {
    super(options);
  }

  override createConnection(): Duplex {
    return connect(this.port, '127.0.0.1');
  }
}

/** A credential whose access token is fixed: no call to Google's token server. */
export function fixedTokenCredential(token = standInAccessToken): Credential {
  return { getAccessToken: async () => ({ access_token: token, expires_in: 3600 }) };
}

/**
 * A local stand-in for the FCM HTTP v1 API (there is no FCM emulator). It checks what the
 * real one checks first (method, path, bearer token, JSON), records every request, and
 * answers as FCM does: 200 with a message name, or what the test's responder says.
 */
export class FcmStandIn {
  readonly received: ReceivedFcmRequest[] = [];
  private responder: FcmResponder = () => undefined;
  private readonly sockets = new Set<Socket>();
  private readonly agents: LocalFcmAgent[] = [];
  private nextMessage = 1;

  private constructor(
    private readonly server: Server,
    readonly projectId: string,
  ) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(projectId = standInProjectId): Promise<FcmStandIn> {
    const server = createServer();
    const standIn = new FcmStandIn(server, projectId);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => standIn.answer(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** An agent leading here (closed with the stand-in). */
  agent(options?: AgentOptions): LocalFcmAgent {
    const agent = new LocalFcmAgent(this.port, options);
    this.agents.push(agent);
    return agent;
  }

  /** Decides the reply to each request from now on; `undefined` from it means 200. */
  respondWith(responder: FcmResponder): void {
    this.responder = responder;
  }

  /** The messages received for one registration token, oldest first. */
  messagesTo(token: string): Array<Record<string, any>> {
    return this.received.filter((r) => r.body.message?.token === token).map((r) => r.body.message);
  }

  clear(): void {
    this.received.length = 0;
    this.responder = () => undefined;
  }

  async close(): Promise<void> {
    for (const agent of this.agents) agent.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(method: string, path: string, headers: IncomingHttpHeaders, text: string, res: ServerResponse): void {
    if (method !== 'POST' || path !== `/v1/projects/${this.projectId}/messages:send`) {
      return reply(res, { status: 404, body: { error: { code: 404, message: `No ${method} ${path}`, status: 'NOT_FOUND' } } });
    }
    if (headers.authorization !== `Bearer ${standInAccessToken}`) {
      return reply(res, { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } });
    }
    let body: ReceivedFcmRequest['body'];
    try {
      body = JSON.parse(text) as ReceivedFcmRequest['body'];
    } catch {
      return reply(res, { status: 400, body: { error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } } });
    }
    const request: ReceivedFcmRequest = { at: Date.now(), method, path, headers, body };
    this.received.push(request);
    const custom = this.responder(request);
    reply(res, custom ?? { status: 200, body: { name: `projects/${this.projectId}/messages/${this.nextMessage++}` } });
  }
}

function reply(res: ServerResponse, { status, body, headers }: FcmReply): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/** A local port nothing listens on: connections to it are refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
