import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { waitFor } from '@formcast/testing';
import { checksConnections } from '../../src/http/connections-check-while-open';
import { closeServer, listenOn } from '../../src/http/listen';

/** Node's connection check (headersTimeout) runs only while a connection is open (issue 24: no 1-s wake idle). */
describe('the connection check, only while connections are open', () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeEach(async () => {
    const app = express();
    app.get('/', (_req, res) => res.send('ok'));
    server = await listenOn(app, 0, { headersMs: 400, bodyBaseMs: 5000, bodyMinBytesPerSecond: 1000, refusedBodyDrainMs: 1000, keepAliveMs: 5000 });
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await closeServer(server);
  });

  const open = () =>
    new Promise<Socket>((resolve) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => resolve(socket));
      sockets.push(socket);
    });

  it('sleeps with no connection open, wakes with one, sleeps again once the last closes', async () => {
    expect(checksConnections(server)).toBe(false);
    const first = await open();
    const second = await open();
    await waitFor(() => checksConnections(server), { timeoutMs: 2000, description: 'the check to wake' });
    first.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(checksConnections(server)).toBe(true);
    second.destroy();
    await waitFor(() => !checksConnections(server), { timeoutMs: 2000, description: 'the check to sleep' });
  });

  it('still answers 408 and closes a connection whose headers never end, woken from sleep', async () => {
    expect(checksConnections(server)).toBe(false);
    const socket = await open();
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const started = Date.now();
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
