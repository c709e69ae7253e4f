// examples/mailbox.js: an SMTP server on 127.0.0.1 that prints each message it takes.
// MAILBOX_PORT=2525 node examples/mailbox.js   (npm install smtp-server)
const { SMTPServer } = require('smtp-server');

new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      const subject = (raw.match(/^Subject: (.*)$/m) || [])[1];
      const files = [...raw.matchAll(/filename="?([^"\r\n;]+)"?/g)].map((m) => m[1]);
      const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
      console.log(`${subject} → ${to}: ${files.join(', ') || 'no attachment'} (${raw.length} bytes)`);
      callback(null, 'OK: queued');
    });
  },
}).listen(Number(process.env.MAILBOX_PORT ?? 2525), '127.0.0.1');
