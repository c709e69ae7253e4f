import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../../../test/support/start-distributed';

const repoRoot = join(__dirname, '../../..');

/**
 * The packages a started embedded process loads (from dist, as `npm start` runs it), among
 * `watched`: each is loaded only by the feature that needs it (a few MB of RSS each).
 */
function loadedByAStartedSystem(watched: string[]): string[] {
  const dataDir = mkdtempSync(join(tmpdir(), 'formcast-heavy-modules-'));
  const script = `
    const { parseSettings, createLogger } = require(${JSON.stringify(join(repoRoot, 'packages/platform/dist/index.js'))});
    const { startEmbedded } = require(${JSON.stringify(join(repoRoot, 'services/embedded/dist/index.js'))});
    const watched = ${JSON.stringify(watched)};
    startEmbedded(parseSettings({ PORT: '0', DATA_DIR: ${JSON.stringify(dataDir)}, LOG_LEVEL: 'silent', ADMIN_TOKEN: 'a'.repeat(32) }), createLogger({ level: 'silent' }))
      .then(async (system) => {
        const files = Object.keys(require.cache);
        const loaded = watched.filter((name) => files.some((file) => file.includes('/node_modules/' + name + '/')));
        await system.stop();
        process.stdout.write(JSON.stringify(loaded));
      });
  `;
  try {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OTEL_|AMQP_|REDIS_|MONGO|FCM_|DELIVERY_SMTP)/.test(name)));
    const child = spawnSync(process.execPath, ['-e', script], { env: clean, encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`the child process failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as string[];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a started embedded process', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('loads no package a feature it does not use needs (email, Redis, Mongo, FCM, spreadsheets, trace export, RabbitMQ, destination templates)', () => {
    const lazy = ['nodemailer', 'ioredis', 'mongoose', 'mongodb', 'firebase-admin', 'exceljs', '@opentelemetry/sdk-trace', 'amqplib', 'liquidjs'];
    // express and better-sqlite3 are loaded by every start: the check finds a package that is there.
    expect(loadedByAStartedSystem([...lazy, 'express', 'better-sqlite3'])).toEqual(['express', 'better-sqlite3']);
  }, 90_000);
});
