import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { connect, createServer as createTlsServer, type ConnectionOptions, type Server as TlsServer, type TLSSocket } from 'node:tls';
import pino from 'pino';
import { startEmbedded, type EmbeddedSystem } from '@formcast/embedded';
import { parseSettings } from '@formcast/platform';
import { deleteTestTopology, uniqueName, waitFor } from '@formcast/testing';
import { distributedAmqpUrl, distributedModeEnabled, ensureBuilt } from './support/start-distributed';

/**
 * HTTPS without an ingress (TLS_CERT_FILE, TLS_KEY_FILE): the API over TLS 1.2 or newer with
 * a self-signed certificate made here by the openssl CLI, older TLS refused, and new files
 * taken up while the process runs. Embedded mode (what `npm start` runs), and the gateway
 * alone as distributed mode runs it.
 */

const repoRoot = resolve(__dirname, '..');
const adminToken = 'https-test-admin-token-0123456789';

interface Certificate {
  cert: Buffer;
  key: Buffer;
  fingerprint: string;
}

/** A self-signed certificate for localhost and 127.0.0.1 (P-256: quick to make). */
function makeCertificate(dir: string, name: string): Certificate {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=formcast test ${name}`,
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(certFile);
  return { cert, key: readFileSync(keyFile), fingerprint: new X509Certificate(cert).fingerprint256 };
}

interface HttpsAnswer {
  status: number;
  body: string;
  tlsVersion: string | null;
  alpn: string | false | null;
}

function httpsRequest(port: number, path: string, ca: Buffer[], options: { method?: string; bearer?: string; token?: string; json?: unknown } = {}): Promise<HttpsAnswer> {
  const headers: Record<string, string> = {};
  if (options.bearer) headers['authorization'] = `Bearer ${options.bearer}`;
  if (options.token) headers['authorization'] = `Basic ${Buffer.from(`${options.token}:x`).toString('base64')}`;
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolveAnswer, reject) => {
    // Offers HTTP/2 first (ALPN reaches tls.connect, though RequestOptions does not declare it).
    const requestOptions: RequestOptions & Pick<ConnectionOptions, 'ALPNProtocols'> = {
      host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, ca, servername: 'localhost', agent: false, ALPNProtocols: ['h2', 'http/1.1'],
    };
    const req = request(requestOptions, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const socket = res.socket as TLSSocket;
        resolveAnswer({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), tlsVersion: socket.getProtocol(), alpn: socket.alpnProtocol });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Handshake = { ok: true; version: string | null; fingerprint: string } | { ok: false; error: Error };

/** A TLS handshake only: which version was agreed and which certificate the server showed, or why it failed. */
function handshake(port: number, options: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolveHandshake) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ...options }, () => {
      const answer: Handshake = { ok: true, version: socket.getProtocol(), fingerprint: socket.getPeerCertificate().fingerprint256 };
      socket.end();
      resolveHandshake(answer);
    });
    socket.once('error', (error) => resolveHandshake({ ok: false, error }));
  });
}

async function servedFingerprint(port: number, ca: Buffer[]): Promise<string | null> {
  const answer = await handshake(port, { ca });
  return answer.ok ? answer.fingerprint : null;
}

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Array<{ msg: string; [key: string]: unknown }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string }) });
  return { logger, lines };
}

describe('settings', () => {
  it('takes the certificate and key together, or neither', () => {
    for (const unset of [{}, { TLS_CERT_FILE: '', TLS_KEY_FILE: ' ' }]) {
      const settings = parseSettings(unset);
      expect(settings.TLS_CERT_FILE).toBeUndefined();
      expect(settings.TLS_KEY_FILE).toBeUndefined();
    }
    expect(parseSettings({ TLS_CERT_FILE: '/etc/tls/tls.crt', TLS_KEY_FILE: '/etc/tls/tls.key' })).toMatchObject({
      TLS_CERT_FILE: '/etc/tls/tls.crt',
      TLS_KEY_FILE: '/etc/tls/tls.key',
    });
    expect(() => parseSettings({ TLS_CERT_FILE: '/etc/tls/tls.crt' })).toThrow(/^Invalid setting TLS_KEY_FILE: must be set with TLS_CERT_FILE$/);
    expect(() => parseSettings({ TLS_KEY_FILE: '/etc/tls/tls.key' })).toThrow(/^Invalid setting TLS_CERT_FILE: must be set with TLS_KEY_FILE$/);
  });
});

describe('HTTPS in embedded mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-https-'));
  const certFile = join(dir, 'tls.crt');
  const keyFile = join(dir, 'tls.key');
  const first = makeCertificate(dir, 'first');
  const second = makeCertificate(dir, 'second');
  const third = makeCertificate(dir, 'third');
  const trusted = [first.cert, second.cert, third.cert];
  const { logger, lines } = capturedLogger();
  let system: EmbeddedSystem;

  const start = (env: Record<string, string>, dataDir: string) =>
    startEmbedded(parseSettings({ PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, ...env }), logger);

  beforeAll(async () => {
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
    system = await start({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }, join(dir, 'data'));
  });
  afterAll(async () => {
    await system?.stop();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('serves the API over HTTPS, HTTP/1.1 even to a client offering HTTP/2, and says so when it starts', async () => {
    expect(system.protocol).toBe('https');
    expect(lines.find((line) => line.msg === 'formcast is listening')).toMatchObject({ port: system.port, protocol: 'https' });

    const created = await httpsRequest(system.port, '/admin/organizations', trusted, { method: 'POST', bearer: adminToken, json: { name: 'Over TLS' } });
    expect(created.status).toBe(201);
    expect(created.tlsVersion).toBe('TLSv1.3');
    expect(created.alpn).toBe('http/1.1');
    const { api_token: token, organization } = JSON.parse(created.body) as { api_token: string; organization: { id: number } };

    const groups = await httpsRequest(system.port, `/organizations/${organization.id}/groups.json`, trusted, { token });
    expect(groups.status).toBe(200);
    expect(groups.body).toContain('Default');
    expect((await httpsRequest(system.port, '/healthz', trusted)).status).toBe(200);
  });

  it('shows a certificate a client can verify for localhost and 127.0.0.1, and refuses plain HTTP', async () => {
    const verified = await handshake(system.port, { ca: trusted });
    expect(verified).toMatchObject({ ok: true, fingerprint: first.fingerprint });
    const untrusted = await handshake(system.port, {});
    expect(untrusted.ok).toBe(false);
    await expect(fetch(`http://127.0.0.1:${system.port}/healthz`)).rejects.toThrow();
  });

  it('takes TLS 1.2 and refuses TLS 1.1 and 1.0, which this client can speak', async () => {
    expect(await handshake(system.port, { ca: trusted, maxVersion: 'TLSv1.2' })).toMatchObject({ ok: true, version: 'TLSv1.2' });

    // Old TLS needs OpenSSL's lowest security level on both ends; a server that allows it
    // shows that this client really speaks it, so the gateway's refusal is the gateway's.
    const old: ConnectionOptions = { ca: trusted, minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' };
    const permissive: TlsServer = createTlsServer({ cert: first.cert, key: first.key, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' }, (socket) => socket.end());
    await new Promise<void>((listening) => permissive.listen(0, '127.0.0.1', listening));
    try {
      const control = await handshake((permissive.address() as { port: number }).port, old);
      expect(control).toMatchObject({ ok: true, version: 'TLSv1.1' });
    } finally {
      permissive.close();
    }

    const refused = await handshake(system.port, old);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toMatch(/protocol version/i);
    const refusedTls10 = await handshake(system.port, { ...old, maxVersion: 'TLSv1' });
    expect(!refusedTls10.ok && refusedTls10.error.message).toMatch(/protocol version/i);
  });

  it('takes up replaced files without a restart, and keeps the certificate it has when the new pair is unusable', async () => {
    const reloads = () => lines.filter((line) => line.msg === 'TLS certificate reloaded').length;
    const refusals = () => lines.filter((line) => /TLS files changed but cannot be used/.test(line.msg)).length;
    const reloadsBefore = reloads();

    // The second certificate with the first one's key: not a pair. Logged; the first stays.
    writeFileSync(certFile, second.cert);
    await waitFor(() => refusals() > 0, { timeoutMs: 15_000, description: 'the unusable pair to be logged' });
    expect(lines.find((line) => /TLS files changed/.test(line.msg))).toMatchObject({ level: 50, certFile, keyFile });
    expect(await handshake(system.port, { ca: trusted })).toMatchObject({ ok: true, fingerprint: first.fingerprint });
    expect((await httpsRequest(system.port, '/healthz', trusted)).status).toBe(200);

    // Its key arrives: the second certificate is served, by the same process.
    writeFileSync(keyFile, second.key);
    await waitFor(async () => (await servedFingerprint(system.port, trusted)) === second.fingerprint, {
      timeoutMs: 15_000,
      description: 'the second certificate to be served',
    });
    expect(reloads()).toBe(reloadsBefore + 1);

    // Files replaced by a rename (as editors, cert-manager and Kubernetes' Secret volumes do).
    writeFileSync(join(dir, 'next.key'), third.key);
    writeFileSync(join(dir, 'next.crt'), third.cert);
    renameSync(join(dir, 'next.key'), keyFile);
    renameSync(join(dir, 'next.crt'), certFile);
    await waitFor(async () => (await servedFingerprint(system.port, trusted)) === third.fingerprint, {
      timeoutMs: 15_000,
      description: 'the third certificate to be served',
    });
    const after = await httpsRequest(system.port, '/healthz', trusted);
    expect(after.status).toBe(200);
  }, 60_000);

  it('refuses to start, naming the problem, on files it cannot read or that are not a pair', async () => {
    await expect(start({ TLS_CERT_FILE: join(dir, 'missing.crt'), TLS_KEY_FILE: keyFile }, join(dir, 'data-missing'))).rejects.toThrow(
      /^Cannot serve HTTPS on PORT 0: Cannot read TLS_CERT_FILE .*missing\.crt: ENOENT$/,
    );
    writeFileSync(join(dir, 'mismatched.crt'), first.cert);
    writeFileSync(join(dir, 'mismatched.key'), second.key);
    await expect(start({ TLS_CERT_FILE: join(dir, 'mismatched.crt'), TLS_KEY_FILE: join(dir, 'mismatched.key') }, join(dir, 'data-mismatched'))).rejects.toThrow(
      /TLS_CERT_FILE and TLS_KEY_FILE do not make a usable pair/,
    );
  });

  it('serves plain HTTP without them, as behind an ingress', async () => {
    const plain = await start({}, join(dir, 'data-plain'));
    try {
      expect(plain.protocol).toBe('http');
      expect((await fetch(`http://127.0.0.1:${plain.port}/healthz`)).status).toBe(200);
    } finally {
      await plain.stop();
    }
  });
});

(distributedModeEnabled ? describe : describe.skip)('HTTPS from the gateway alone (distributed mode)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'formcast-https-gateway-'));
  const certificate = makeCertificate(dir, 'gateway');
  const prefix = uniqueName('e2e_https');
  let gateway: ChildProcess | undefined;
  const logged: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    ensureBuilt();
    gateway = spawn(process.execPath, [join('services', 'gateway', 'dist', 'main.js')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        AMQP_URL: distributedAmqpUrl,
        AMQP_PREFIX: prefix,
        ADMIN_TOKEN: adminToken,
        PORT: '0',
        METRICS_PORT: '0',
        TLS_CERT_FILE: join(dir, 'gateway.crt'),
        TLS_KEY_FILE: join(dir, 'gateway.key'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    createInterface({ input: gateway.stdout! }).on('line', (line) => {
      output.push(line);
      try {
        logged.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    });
    createInterface({ input: gateway.stderr! }).on('line', (line) => output.push(line));
    await waitFor(
      () => {
        if (gateway!.exitCode !== null) throw new Error(`it exited ${gateway!.exitCode}: ${output.join('\n')}`);
        return logged.some((line) => line.msg === 'gateway listening');
      },
      { timeoutMs: 60_000, description: 'the gateway to listen' },
    );
  }, 90_000);
  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((done) => gateway!.once('exit', done));
      gateway.kill('SIGTERM');
      await exited;
    }
    await deleteTestTopology(distributedAmqpUrl, prefix, ['gateway']);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }, 30_000);

  it('serves its probes and API over TLS 1.2 or newer', async () => {
    const listening = logged.find((line) => line.msg === 'gateway listening')!;
    expect(listening.protocol).toBe('https');
    const port = listening.port as number;
    const health = await httpsRequest(port, '/healthz', [certificate.cert]);
    expect(health).toMatchObject({ status: 200, alpn: 'http/1.1' });
    const unauthorized = await httpsRequest(port, '/admin/organizations', [certificate.cert], { method: 'POST', json: { name: 'x' } });
    expect(unauthorized.status).toBe(401);
    const old = await handshake(port, { ca: [certificate.cert], minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' });
    expect(!old.ok && old.error.message).toMatch(/protocol version/i);
  });
});
