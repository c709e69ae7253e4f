import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Arrivals } from './arrivals';
import { stopOnSigterm } from './stop-signals';

/**
 * S9's mailbox, in a process of its own: a real SMTP server (smtp-server) taking every
 * message, noting when the first message of each tag came (epoch ms to the microsecond, as
 * the webhook receiver does). The tag is the message's Subject (S9's destinations use
 * `subject_template: "{{ <tag question> }}"`); a message without a PDF attachment is refused (554).
 * IPC: reports `{ready, port}`; answers as Arrivals says (count, arrivals, sample, clear).
 */
const arrivals = new Arrivals();

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 50 * 1024 * 1024,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const raw = Buffer.concat(chunks).toString('latin1');
      const tag = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim();
      if (!tag || !/Content-Type: application\/pdf/i.test(raw)) return callback(Object.assign(new Error('no tagged PDF'), { responseCode: 554 }));
      arrivals.note(tag, at, () => raw.slice(0, 2000));
      callback(null, 'OK: queued');
    });
  },
});

arrivals.answerOverIpc();
stopOnSigterm((closed) => server.close(closed));

server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, port: (server.server.address() as AddressInfo).port });
});
