/** A small HTTP client over real sockets (Node's fetch) for end-to-end tests. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json<T = any>(): T;
}

export interface RequestOptions {
  /** Organization API token, sent as HTTP Basic user name (password `x`, as real clients do). */
  token?: string;
  /** Sent as `Authorization: Bearer …` (admin token, device secret). */
  bearer?: string;
  json?: unknown;
  xml?: string;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) {
      headers['authorization'] = `Basic ${Buffer.from(`${options.token}:x`).toString('base64')}`;
    }
    if (options.bearer !== undefined) headers['authorization'] = `Bearer ${options.bearer}`;
    let body: string | Buffer | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    if (options.xml !== undefined) {
      body = options.xml;
      headers['content-type'] ??= 'application/xml';
    }
    if (options.contentType) headers['content-type'] = options.contentType;
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: () => JSON.parse(text),
    };
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }
  post(path: string, options?: RequestOptions) {
    return this.request('POST', path, options);
  }
  put(path: string, options?: RequestOptions) {
    return this.request('PUT', path, options);
  }
  delete(path: string, options?: RequestOptions) {
    return this.request('DELETE', path, options);
  }
}
