import type { Logger } from '@formcast/platform';
import type { ChannelModel, RecoveringChannelModel } from 'amqplib';
import type { ConnectionChannel } from './managed-channel';
import { patchAmqplib } from './patch-amqplib';

export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  /** Shown by RabbitMQ (management UI, `rabbitmqctl list_connections client_properties`). */
  connectionName?: string;
  /** Attempts at the first connection before start() fails (default 10, about 25 s). */
  connectRetries?: number;
}

/**
 * amqplib, loaded at the first connection: an embedded process (the in-process bus) never
 * loads it (~3 MB of RSS). `require`, as nodemailer is, so jest resolves it too.
 */
function loadAmqplib(): typeof import('amqplib') {
  return require('amqplib') as typeof import('amqplib');
}

/**
 * The broker connection, reconnected by amqplib's recovery with backoff. After every
 * (re)connect, each managed channel is opened and set up again (topology, consumers)
 * before the connection counts as open; when it drops, they are all detached.
 */
export class AmqpConnection {
  private recovering: RecoveringChannelModel | null = null;
  private model: ChannelModel | null = null;
  private readonly channels = new Set<ConnectionChannel>();
  private readonly logger: Logger;
  private closed = false;

  constructor(private readonly options: AmqpConnectionOptions) {
    this.logger = options.logger;
  }

  get isOpen(): boolean {
    return this.model !== null;
  }

  /** The live connection, for one-off channels. */
  get current(): ChannelModel | null {
    return this.model;
  }

  get allChannelsOpen(): boolean {
    return [...this.channels].every((channel) => channel.isOpen);
  }

  /** Manages `channel` from now on: opens it now when connected, else at the next connect. */
  async add(channel: ConnectionChannel): Promise<void> {
    this.channels.add(channel);
    if (this.model && !channel.isAttachedTo(this.model)) await channel.attach(this.model);
  }

  async open(): Promise<void> {
    const recovering = await loadAmqplib().connect(this.options.url, {
      // Without it, Nagle's algorithm holds back small frames (a command, a reply) while an
      // earlier one awaits its ACK: up to 40 ms per message under load.
      noDelay: true,
      clientProperties: this.options.connectionName ? { connection_name: this.options.connectionName } : {},
      recovery: {
        initialDelay: 100,
        maxDelay: 5000,
        initialMaxRetries: this.options.connectRetries ?? 10,
        waitForConnect: false,
        setup: (model: ChannelModel) => this.setUp(model),
      },
    });
    this.recovering = recovering;
    if (this.closed) {
      await recovering.close();
      throw new Error('Closed while connecting');
    }
    recovering.on('error', (err) => this.logger.warn({ err }, 'broker connection error'));
    recovering.on('handler-error', (err, event) => this.logger.error({ err, event }, 'error in a connection listener'));
    recovering.on('disconnect', (err) => {
      this.logger.warn({ err }, 'lost the broker connection; reconnecting');
      this.dropChannels();
    });
    recovering.on('connect-failed', (err) => this.logger.warn({ err }, 'connecting to the broker failed'));
    recovering.on('reconnect-failed', (err) => this.logger.error({ err }, 'gave up reconnecting to the broker'));
    recovering.on('connect', () => this.logger.info('connected to the broker'));
    await recovering.waitForConnect();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.channels].map((channel) => channel.close()));
    this.model = null;
    await this.recovering?.close();
  }

  private async setUp(model: ChannelModel): Promise<void> {
    patchAmqplib(model, this.logger);
    // Until recovery binds its own listeners, a connection error here would be unhandled.
    model.on('error', (err: Error) => this.logger.warn({ err }, 'broker connection error during setup'));
    try {
      // Channels added while others were being set up are picked up by the next round.
      for (;;) {
        const pending = [...this.channels].filter((channel) => !channel.isAttachedTo(model));
        if (pending.length === 0) break;
        await Promise.all(pending.map((channel) => channel.attach(model)));
      }
    } catch (error) {
      this.dropChannels();
      throw error;
    }
    this.model = model;
  }

  private dropChannels(): void {
    this.model = null;
    for (const channel of this.channels) channel.detach();
  }
}
