// examples/receiver.js: a webhook receiver that checks Formcast's signatures (Standard Webhooks).
// WEBHOOK_SECRET=whsec_… RECEIVER_PORT=4000 node examples/receiver.js   (npm install standardwebhooks)
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
const seen = new Set();

http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let submission;
    try {
      // Throws unless the signature is the secret's and webhook-timestamp is within 5 minutes.
      submission = webhook.verify(body, req.headers);
    } catch (error) {
      console.error('refused:', error.message);
      res.writeHead(400).end();
      return;
    }
    // Delivery is at least once: webhook-id is the same on every retry of one delivery.
    const id = req.headers['webhook-id'];
    if (!seen.has(id)) {
      seen.add(id);
      console.log(id, JSON.stringify(submission));
    }
    res.writeHead(204).end();
  });
}).listen(Number(process.env.RECEIVER_PORT ?? 4000), '127.0.0.1');
