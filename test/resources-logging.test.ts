import pino from 'pino';
import { redactedPaths } from '@formcast/platform';
import { createOrganization } from './support/fixtures';
import { systemModes } from './support/start-system';
import { useSystem } from './support/use-system';
import { mime } from './fixtures/resource-files';

/** A logger of everything (trace) into `lines` with the platform's redaction, so a test can read what every part of the system logged. */
function loggerInto(lines: string[]) {
  return pino({ level: 'trace', redact: { paths: redactedPaths, censor: '[redacted]' } }, { write: (line: string) => void lines.push(line) });
}

describe.each(systemModes)('Resources: file bytes never reach the logs (%s)', (mode) => {
  const lines: string[] = [];
  const sys = useSystem(mode, { env: { LOG_LEVEL: 'trace' }, logger: loggerInto(lines) });

  it('logs requests and failures at trace level, never the file or its Base64', async () => {
    const { api } = sys;
    const org = await createOrganization(api, sys.adminToken);
    const secret = 'CONFIDENTIAL-PAYROLL-4242';
    const bytes = Buffer.from(`${secret}\n`.repeat(50));
    const base64 = bytes.toString('base64');
    const file = (contentType: string, data = base64) => ({ file_name: 'payroll.txt', file_data: data, content_type: contentType });

    const created = await api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'payroll', file: file(mime.text) } } });
    expect(created.status).toBe(201);
    const id = created.json().resource.id;
    expect((await api.get(`/api/resources/${id}`, { token: org.token })).text).toBe(bytes.toString());
    // Failures of every kind: refused type, bytes that are not the type, a size the service refuses.
    expect((await api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'x', file: file('image/gif') } } })).status).toBe(415);
    expect((await api.post('/api/resources.json', { token: org.token, json: { resource: { description: 'x', file: file(mime.png) } } })).status).toBe(422);
    const form = `resource[description]=x&resource[file][file_name]=a&resource[file][content_type]=${encodeURIComponent(mime.json)}&resource[file][file_data]=${encodeURIComponent(base64)}`;
    expect((await api.post('/api/resources.json', { token: org.token, body: form, contentType: 'application/x-www-form-urlencoded' })).status).toBe(422);
    expect((await api.put(`/api/resources/${id}.json`, { token: org.token, json: { resource: { file: file(mime.text) } } })).status).toBe(200);

    const logged = lines.join('');
    expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(6);
    expect(lines.some((line) => line.includes('"msg":"command failed"'))).toBe(true);
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(base64.slice(0, 40));
  });
});
