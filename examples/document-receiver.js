// examples/document-receiver.js: receives documents (a PDF, a .docx) POSTed by an http_transport
// destination, checks each signature over the body's bytes, and saves the document under its name.
// DOC_SECRET=whsec_… DOCUMENT_RECEIVER_PORT=4001 node examples/document-receiver.js
// (standardwebhooks reads a body as text and cannot check a binary one: the HMAC is computed here.)
const http = require('node:http');
const { createHmac, timingSafeEqual } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const { basename } = require('node:path');

const key = Buffer.from(process.env.DOC_SECRET.replace(/^whsec_/, ''), 'base64');
const port = Number(process.env.DOCUMENT_RECEIVER_PORT || 4001);

http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const id = req.headers['webhook-id'];
    const timestamp = req.headers['webhook-timestamp'];
    // Standard Webhooks: HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>." and the body's bytes.
    const expected = Buffer.from(`v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`);
    const signed = (req.headers['webhook-signature'] || '').split(' ').some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
    if (!signed || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
      console.error('refused: bad or old signature');
      res.writeHead(400).end();
      return;
    }
    const name = basename((/filename="([^"]+)"/.exec(req.headers['content-disposition'] || '') || [])[1] || `${id}.bin`);
    writeFileSync(name, body);
    console.log(`${name}: ${req.headers['content-type']}, ${body.length} bytes, signature checked`);
    res.writeHead(204).end();
  });
}).listen(port, '127.0.0.1');
