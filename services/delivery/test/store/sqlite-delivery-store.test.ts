import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { newSigningSecrets } from '../../src/domain/signing-secrets';
import { SqliteDeliveryStore } from '../../src/store';
import { describeDeliveryStoreContract } from './delivery-store.contract';

describeDeliveryStoreContract('SqliteDeliveryStore', async () => new SqliteDeliveryStore(':memory:'));

describe('SqliteDeliveryStore on a file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'delivery-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it('keeps the schedule across a restart, and leases hold between two processes on one file', async () => {
    const file = join(dir, 'delivery.sqlite');
    const first = new SqliteDeliveryStore(file);
    const destination = await first.createDestination(
      {
        orgId: 1,
        formId: 2,
        description: null,
        format: 'json_format',
        transport: { type: 'http_transport', parameters: { uri: 'https://example.com/' } },
        secrets: newSigningSecrets(),
      },
      randomUUID(),
    );
    await first.createDeliveries(
      [{ orgId: 1, formId: 2, destinationId: destination.id, submissionId: 9, webhookId: 'msg_1', contentType: 'application/json', body: '{}' }],
      1000,
    );
    await first.close();

    const [one, two] = [new SqliteDeliveryStore(file), new SqliteDeliveryStore(file)];
    try {
      const due = await one.dueDeliveries(2000, 10, 10);
      expect(due).toHaveLength(1);
      const ids = due.map((candidate) => candidate.id);
      const [claimedByOne, claimedByTwo] = [await one.claim(ids, 2000, 60_000), await two.claim(ids, 2000, 60_000)];
      expect(claimedByOne).toHaveLength(1);
      expect(claimedByTwo).toEqual([]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
