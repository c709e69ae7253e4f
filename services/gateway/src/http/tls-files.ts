import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { createSecureContext, type Server as TlsServer } from 'node:tls';
import type { Logger, Settings } from '@formcast/platform';

/** Where the gateway's certificate (PEM, its chain after it) and private key are. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** The files named by TLS_CERT_FILE and TLS_KEY_FILE, or undefined (HTTP) when they are unset. */
export function tlsFilesOf(settings: Pick<Settings, 'TLS_CERT_FILE' | 'TLS_KEY_FILE'>): TlsFiles | undefined {
  if (settings.TLS_CERT_FILE === undefined || settings.TLS_KEY_FILE === undefined) return undefined;
  return { certFile: settings.TLS_CERT_FILE, keyFile: settings.TLS_KEY_FILE };
}

/** A certificate and its key as read, and the oldest TLS version served: 1.0 and 1.1 are refused (deprecated, RFC 8996). */
export interface TlsPair {
  cert: Buffer;
  key: Buffer;
  minVersion: 'TLSv1.2';
}

/**
 * Reads the pair and checks that it makes a secure context (readable PEM, the key matching
 * the certificate); throws naming the file or the problem otherwise.
 */
export function readTlsPair(files: TlsFiles): TlsPair {
  const cert = readPem('TLS_CERT_FILE', files.certFile);
  const key = readPem('TLS_KEY_FILE', files.keyFile);
  const pair: TlsPair = { cert, key, minVersion: 'TLSv1.2' };
  try {
    createSecureContext(pair);
  } catch (error) {
    throw new Error(`TLS_CERT_FILE and TLS_KEY_FILE do not make a usable pair: ${(error as Error).message}`);
  }
  return pair;
}

function readPem(setting: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`Cannot read ${setting} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Takes up a new certificate and key without a restart: both files are checked every
 * `intervalMs` (stat polling, which also sees a file replaced by a rename or a Kubernetes
 * Secret's symlink swap, where an inotify watch would stay on the old file); after a change
 * has settled, the pair is read again and, when usable, becomes the server's. A pair that
 * is not usable (half written, a key of another certificate) is logged and the previous one
 * kept; the next change tries again. Stops with the server.
 */
export function reloadOnChange(server: TlsServer, files: TlsFiles, current: TlsPair, logger: Logger, intervalMs = 1000): void {
  let active = current;
  let settle: NodeJS.Timeout | undefined;
  const reload = () => {
    settle = undefined;
    let next: TlsPair;
    try {
      next = readTlsPair(files);
    } catch (error) {
      logger.error({ err: error, ...files }, 'TLS files changed but cannot be used: the previous certificate is kept');
      return;
    }
    if (next.cert.equals(active.cert) && next.key.equals(active.key)) return;
    server.setSecureContext(next);
    active = next;
    logger.info({ ...files }, 'TLS certificate reloaded');
  };
  const changed = (now: Stats, before: Stats) => {
    if (now.mtimeMs === before.mtimeMs && now.ino === before.ino && now.size === before.size) return;
    clearTimeout(settle);
    // Both files are usually replaced one after the other: read them once the writes paused.
    settle = setTimeout(reload, Math.min(250, intervalMs));
    settle.unref();
  };
  const options = { interval: intervalMs, persistent: false };
  watchFile(files.certFile, options, changed);
  watchFile(files.keyFile, options, changed);
  server.once('close', () => {
    unwatchFile(files.certFile, changed);
    unwatchFile(files.keyFile, changed);
    clearTimeout(settle);
  });
}
