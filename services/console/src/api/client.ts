import { ApiError, errorMessageOf } from './api-error';
import type { Session } from './session';

export interface RequestOptions {
  method?: string;
  json?: unknown;
}

/** An answer read whole: its status, headers and text. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The public API, as an integrator calls it: HTTP Basic with the API token as the user
 * name. A 401 means the token is no longer good (revoked or expired): `onUnauthorized` runs
 * (the console signs out) and the call fails.
 */
export class ApiClient {
  constructor(
    readonly session: Session,
    private readonly onUnauthorized: () => void,
  ) {}

  get orgId(): number {
    return this.session.orgId;
  }

  authorization(): string {
    return `Basic ${btoa(`${this.session.token}:x`)}`;
  }

  /** A 401: the console signs out; the error to throw. */
  tokenRefused(): ApiError {
    this.onUnauthorized();
    return new ApiError(401, 'The API token was refused: it may have been revoked or expired. Sign in again.');
  }

  /** The answer, once it is a success; a refusal throws ApiError with the API's message. */
  async fetchOk(path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { Authorization: this.authorization(), Accept: 'application/json' };
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      // credentials: 'omit': the browser neither sends nor asks for credentials of its own,
      // so a 401 never opens its sign-in dialog.
      res = await fetch(path, {
        method: options.method ?? 'GET',
        headers,
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
        credentials: 'omit',
      });
    } catch {
      throw new ApiError(0, 'The server could not be reached. Check the connection and try again.');
    }
    if (res.status === 401) throw this.tokenRefused();
    if (!res.ok) throw new ApiError(res.status, errorMessageOf(res.status, await res.text()));
    return res;
  }

  async request(path: string, options: RequestOptions = {}): Promise<ApiAnswer> {
    const res = await this.fetchOk(path, options);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  async getJson<T>(path: string): Promise<T> {
    return JSON.parse((await this.request(path)).text) as T;
  }

  async sendJson<T>(method: string, path: string, json?: unknown): Promise<T | null> {
    const { text } = await this.request(path, { method, json });
    return text === '' ? null : (JSON.parse(text) as T);
  }
}
