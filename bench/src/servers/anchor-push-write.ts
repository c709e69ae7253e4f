import type { AddressInfo } from 'node:net';
import express from 'express';
import { openAnchorDatabase } from './anchor-sqlite-file';
import { stopOnSigterm } from './stop-signals';

/**
 * A4: the irreducible work of an embedded push (S1). Express, the same JSON body parse, one
 * SQLite transaction writing the rows a push must write (the oneshot and its outbox event),
 * and the 202 answer in the push answer's shape. No auth, no validation, no logging, no bus.
 * Reports `{ready, port}` over IPC.
 */
const namespace = 'http://formcast.local/xforms/00000000-0000-4000-8000-000000000000';

const db = openAnchorDatabase('a4', `
  CREATE TABLE oneshots (
    id INTEGER PRIMARY KEY, device_identifier TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
    description TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL, created_at TEXT NOT NULL
  );
  CREATE INDEX oneshots_device_state ON oneshots (device_identifier, state, id);
  CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL);
`);
const insertOneshot = db.prepare(
  `INSERT INTO oneshots (device_identifier, namespace, name, description, payload, state, created_at) VALUES (?, ?, ?, ?, ?, 'outstanding', ?)`,
);
const insertEvent = db.prepare('INSERT INTO outbox (event) VALUES (?)');

interface PushBody {
  form_name: string;
  form_description?: string;
  payload?: unknown;
}

const writePush = db.transaction((device: string, body: PushBody): number => {
  const now = new Date().toISOString();
  const id = Number(insertOneshot.run(device, namespace, body.form_name, body.form_description ?? '', JSON.stringify(body.payload ?? {}), now).lastInsertRowid);
  insertEvent.run(JSON.stringify({ type: 'push.oneshot.created', payload: { oneshotId: id, deviceIdentifier: device, name: body.form_name }, at: now }));
  return id;
});

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json({ limit: '1mb' }));
app.post('/clients/:device/oneshots{.:format}', (req, res) => {
  const body = req.body as PushBody;
  const id = writePush(String(req.params.device), body);
  res.status(202).json({ oneshot_list: [{ id, namespace, name: body.form_name }] });
});

const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, port: (server.address() as AddressInfo).port });
});
stopOnSigterm((closed) => server.close(closed));
