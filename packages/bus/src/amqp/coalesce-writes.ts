import type { Socket } from 'node:net';
import { isFunction, type AmqplibPatch } from './amqplib-patch';

/**
 * amqplib writes every frame to the socket on its own, and with TCP_NODELAY each write is a
 * syscall and a packet: a command is three frames, its reply three more, an event and its
 * confirm as many again. Corked from the first write of a turn of the event loop to the
 * end of that turn, the frames of that turn leave in one writev. Measured (issue 7): the
 * socket writes were about a quarter of the push process's CPU in distributed mode.
 *
 * Reaches into amqplib's connection for its socket (`connection.stream`).
 */
export const coalesceWrites: AmqplibPatch<{ stream: Socket }> = {
  name: 'coalesce-writes',
  requirements: (connection) => [[isSocket(connection.stream), '`connection.stream` is not a socket (no cork() and write())']],
  apply: ({ stream: socket }) => {
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
  },
};

function isSocket(value: unknown): value is Socket {
  return typeof value === 'object' && value !== null && isFunction((value as Socket).cork) && isFunction((value as Socket).write);
}
