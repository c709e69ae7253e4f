import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { extraSocketConnections } from '../../src/http/accept-sockets';
import { closeServer, listenOn } from '../../src/http/listen';

// SO_REUSEPORT's spreading of connections is Linux's; elsewhere the gateway listens on one socket.
const onLinux = process.platform === 'linux' ? it : it.skip;

const app = express().get('/', (_req, res) => {
  res.send('served');
});

/** A raw keep-alive connection that sent one GET and read its whole answer: the status line. */
function getOver(port: number): Promise<{ socket: Socket; status: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.endsWith('served')) resolve({ socket, status: text.split('\r\n')[0]! });
    });
    socket.write('GET / HTTP/1.1\r\nHost: gateway\r\n\r\n');
  });
}

function refused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('listenOn with several accepting sockets (HTTP_ACCEPT_SOCKETS)', () => {
  let server: Server | undefined;
  const open: Socket[] = [];
  let blocker: NetServer | undefined;

  afterEach(async () => {
    for (const socket of open.splice(0)) socket.destroy();
    if (server?.listening) await closeServer(server);
    server = undefined;
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = undefined;
  });

  onLinux('serves the connections every socket accepts, with the same app', async () => {
    server = await listenOn(app, 0, undefined, undefined, 4);
    const port = (server.address() as AddressInfo).port;
    const answers = await Promise.all(Array.from({ length: 40 }, () => getOver(port)));
    open.push(...answers.map((answer) => answer.socket));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill('HTTP/1.1 200 OK'));
    const held = await extraSocketConnections(server);
    expect(held).toHaveLength(3);
    // The kernel spreads connections by their addresses: 40 on one socket of four is (1/4)^39 unlikely.
    expect(held.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
  });

  onLinux('refuses a port another server holds, as one socket would', async () => {
    blocker = createNetServer();
    await new Promise<void>((resolve) => blocker!.listen(0, resolve));
    const port = (blocker.address() as AddressInfo).port;
    await expect(listenOn(app, port, undefined, undefined, 4)).rejects.toThrow(`Cannot serve HTTP on PORT ${port}: listen EADDRINUSE`);
  });

  onLinux('a second gateway cannot join a running one on its port', async () => {
    server = await listenOn(app, 0, undefined, undefined, 4);
    const port = (server.address() as AddressInfo).port;
    await expect(listenOn(app, port, undefined, undefined, 4)).rejects.toThrow(`Cannot serve HTTP on PORT ${port}: listen EADDRINUSE`);
    const { socket, status } = await getOver(port);
    open.push(socket);
    expect(status).toBe('HTTP/1.1 200 OK');
  });

  onLinux('closeServer stops every socket from accepting, and waits for the connections they took', async () => {
    server = await listenOn(app, 0, undefined, undefined, 4);
    const port = (server.address() as AddressInfo).port;
    const answers = await Promise.all(Array.from({ length: 20 }, () => getOver(port)));
    const closed = Promise.all(answers.map(({ socket }) => new Promise((resolve) => socket.once('close', resolve))));
    // Idle keep-alive connections, on every socket: closeServer ends them and resolves after.
    await closeServer(server);
    await closed;
    expect(await Promise.all(Array.from({ length: 20 }, () => refused(port)))).toEqual(Array(20).fill('ECONNREFUSED'));
  });
});
