import { connect, type ChannelModel } from 'amqplib';
import { AmqpBus } from '../src/amqp-bus';
import { applyPatch, type PatchResult } from '../src/amqp/amqplib-patch';
import { coalesceWrites } from '../src/amqp/coalesce-writes';
import { contentAssembly } from '../src/amqp/content-assembly';
import { contentFramesInPlace } from '../src/amqp/content-frames-in-place';
import { amqplibPatches, patchAmqplib } from '../src/amqp/patch-amqplib';
import { brokerUrl, describeWithBroker as describeWithBrokerFor } from './broker-admin';
import { capturingLogger } from './capturing-logger';

const describeWithBroker = describeWithBrokerFor('amqplib patches');

type Connection = Record<string, unknown>;
const connectionOf = (model: ChannelModel) => (model as unknown as { connection: Connection }).connection;

/** `model` as a version of amqplib without `field` on its connection would give it. */
function lacking(model: ChannelModel, field: string): ChannelModel {
  return { connection: Object.create(connectionOf(model), { [field]: { value: undefined } }) } as unknown as ChannelModel;
}

const warnings = (lines: string[]) =>
  lines.map((line) => JSON.parse(line) as { level: number; patch?: string; reason?: string; msg: string }).filter((line) => line.level === 40);

describeWithBroker('the amqplib patches, against the installed amqplib', () => {
  let model: ChannelModel;
  beforeEach(async () => {
    model = await connect(brokerUrl);
  });
  afterEach(() => model.close());

  // When this fails after an upgrade, see "Upgrading amqplib" in packages/bus/README.md.
  it('all apply to a real connection, and nothing is logged', () => {
    const { logger, lines } = capturingLogger();

    const results = patchAmqplib(model, logger);

    expect(results).toEqual<PatchResult[]>([
      { patch: 'coalesce-writes', applied: true },
      { patch: 'content-assembly', applied: true },
      { patch: 'content-frames-in-place', applied: true },
    ]);
    expect(warnings(lines)).toEqual([]);
  });

  it.each([
    { patch: coalesceWrites, field: 'stream' },
    ...['recvFrame', 'stream', 'rest', 'maxFrameSize', 'recvSinceLastCheck'].map((field) => ({ patch: contentAssembly, field })),
    ...['sendContent', 'channels', 'frameMax', 'sentSinceLastCheck'].map((field) => ({ patch: contentFramesInPlace, field })),
  ])('$patch.name does not apply to a connection without `$field`, and says so', ({ patch, field }) => {
    const result = applyPatch(patch, lacking(model, field));

    expect(result.applied).toBe(false);
    expect(result.reason).toContain(`\`connection.${field}\``);
  });

  it('none applies to a ChannelModel without its connection', () => {
    const notAModel = {} as ChannelModel;
    for (const patch of amqplibPatches) {
      expect(applyPatch(patch, notAModel)).toMatchObject({ applied: false, reason: 'the ChannelModel has no `connection`' });
    }
  });

  it('warns about each patch that did not apply, naming it and why', () => {
    const { logger, lines } = capturingLogger();

    patchAmqplib(lacking(model, 'recvFrame'), logger);

    expect(warnings(lines)).toEqual([
      expect.objectContaining({
        patch: 'content-assembly',
        reason: '`connection.recvFrame` is not a function',
        msg: expect.stringContaining('Upgrading amqplib'),
      }),
    ]);
  });

  it('are put on the bus connection when it connects', async () => {
    const { logger, lines } = capturingLogger();
    const bus = new AmqpBus({ url: brokerUrl, logger });
    await bus.start();
    try {
      const live = (bus as unknown as { connection: { current: ChannelModel } }).connection.current;
      const connection = connectionOf(live);
      for (const field of ['recvFrame', 'sendContent']) expect(Object.prototype.hasOwnProperty.call(connection, field)).toBe(true);
      expect(Object.prototype.hasOwnProperty.call(connection.stream, 'write')).toBe(true);
      expect(warnings(lines).filter((line) => line.patch !== undefined)).toEqual([]);
    } finally {
      await bus.close();
    }
  });
});
