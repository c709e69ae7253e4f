import { CliError, exitCodes } from './exit-codes';
import type { Connection } from './connection';

const requestTimeoutMs = 30_000;

/** The admin API over HTTP: JSON in and out; failures as CliErrors with the exit code they mean. */
export class AdminClient {
  constructor(private readonly connection: Connection) {}

  get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.send<T>('POST', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.send<T>('DELETE', path);
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.connection.url}/admin${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.connection.adminToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(requestTimeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new CliError(exitCodes.unreachable, `Cannot reach ${this.connection.url}: ${reasonOf(error)}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status >= 500) {
      throw new CliError(exitCodes.unreachable, `The server failed (${response.status}): ${messageOf(text) || response.statusText}`);
    }
    if (response.status >= 400) {
      throw new CliError(exitCodes.refused, `Refused (${response.status}): ${messageOf(text) || response.statusText}`);
    }
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliError(exitCodes.unreachable, `The server answered ${method} ${path} with something other than JSON`);
    }
  }
}

function reasonOf(error: unknown): string {
  if ((error as { name?: unknown }).name === 'TimeoutError') return `no answer within ${requestTimeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown; errors?: Array<{ code?: unknown }> } }).cause;
  const code = cause?.code ?? cause?.errors?.find((inner) => typeof inner.code === 'string')?.code;
  if (typeof code === 'string') return code;
  if (typeof cause?.message === 'string' && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The message of an error answer: JSON `{message}`, the plain-text 400's `message:` line, or the text. */
function messageOf(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    const message = (parsed as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON
  }
  const line = /^message: (.*)$/m.exec(text);
  return (line?.[1] ?? text).trim().slice(0, 500);
}
