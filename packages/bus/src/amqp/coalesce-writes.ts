import type { Socket } from 'node:net';
import type { ChannelModel } from 'amqplib';

const coalesced = new WeakSet<Socket>();

/**
 * amqplib writes every frame to the socket on its own, and with TCP_NODELAY each write is a
 * syscall and a packet: a command is three frames, its reply three more, an event and its
 * confirm as many again. Corked from the first write of a turn of the event loop to the
 * end of that turn, the frames of that turn leave in one writev. Measured (issue 7): the
 * socket writes were about a quarter of the push process's CPU in distributed mode.
 *
 * Reaches into amqplib's connection for its socket (`connection.stream`); when a version
 * has none, nothing changes.
 */
export function coalesceWrites(model: ChannelModel): void {
  const socket = (model as unknown as { connection?: { stream?: unknown } }).connection?.stream;
  if (!isSocket(socket) || coalesced.has(socket)) return;
  coalesced.add(socket);
  const write = socket.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Socket['write'];
}

function isSocket(value: unknown): value is Socket {
  return typeof value === 'object' && value !== null && typeof (value as Socket).cork === 'function' && typeof (value as Socket).write === 'function';
}
