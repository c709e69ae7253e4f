import type { Logger } from '@formcast/platform';
import type { Channel, ChannelModel } from 'amqplib';

export interface ManagedChannelOptions<C extends Channel> {
  name: string;
  open: (model: ChannelModel) => Promise<C>;
  /** Declares what the channel needs and starts its consumers; runs on every (re)open. */
  setup: (channel: C) => Promise<void>;
  /** The channel is gone: whatever waits on it (replies, confirms) will not complete. */
  onLost?: (channel: C) => void;
  logger: Logger;
}

/** What the connection needs of a managed channel, whatever kind of channel it holds. */
export interface ConnectionChannel {
  readonly isOpen: boolean;
  isAttachedTo(model: ChannelModel): boolean;
  attach(model: ChannelModel): Promise<void>;
  detach(): void;
  close(): Promise<void>;
}

const firstReopenDelayMs = 100;
const maxReopenDelayMs = 5000;

/**
 * One channel that outlives its failures. A channel error closes only that channel: it is
 * reopened and set up again on the same connection, with backoff. When the connection
 * goes, `detach()` forgets it and the connection's recovery attaches it to the next one.
 */
export class ManagedChannel<C extends Channel = Channel> implements ConnectionChannel {
  private channel: C | null = null;
  private model: ChannelModel | null = null;
  private reopenTimer: NodeJS.Timeout | null = null;
  private reopenAttempts = 0;
  private closed = false;
  private readonly logger: Logger;

  constructor(private readonly options: ManagedChannelOptions<C>) {
    this.logger = options.logger.child({ channel: options.name });
  }

  /** The open, set-up channel, or null while there is none. */
  get current(): C | null {
    return this.channel;
  }

  get isOpen(): boolean {
    return this.channel !== null;
  }

  isAttachedTo(model: ChannelModel): boolean {
    return this.model === model;
  }

  async attach(model: ChannelModel): Promise<void> {
    this.model = model;
    if (this.closed) return;
    try {
      await this.open(model);
    } catch (error) {
      if (!this.closed && this.model === model && !this.channel) this.scheduleReopen(model);
      throw error;
    }
  }

  /** The connection is gone, and its channels with it. */
  detach(): void {
    this.model = null;
    this.cancelReopen();
    this.forget(this.channel);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelReopen();
    const channel = this.channel;
    this.forget(channel);
    await channel?.close().catch(() => undefined);
  }

  private async open(model: ChannelModel): Promise<void> {
    const channel = await this.options.open(model);
    channel.on('error', (err: Error) => this.logger.warn({ err }, 'channel error'));
    channel.on('close', () => this.onClose(channel, model));
    try {
      await this.options.setup(channel);
    } catch (error) {
      await channel.close().catch(() => undefined);
      throw error;
    }
    if (this.closed || this.model !== model) {
      await channel.close().catch(() => undefined);
      return;
    }
    this.channel = channel;
    this.reopenAttempts = 0;
  }

  private forget(channel: C | null): void {
    if (!channel || this.channel !== channel) return;
    this.channel = null;
    this.options.onLost?.(channel);
  }

  private onClose(channel: C, model: ChannelModel): void {
    this.forget(channel);
    // Only reopen on a live connection; a dead one is the connection recovery's job.
    if (!this.closed && this.model === model) this.scheduleReopen(model);
  }

  private scheduleReopen(model: ChannelModel): void {
    if (this.reopenTimer) return;
    const delayMs = Math.min(firstReopenDelayMs * 2 ** this.reopenAttempts, maxReopenDelayMs);
    this.reopenAttempts += 1;
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = null;
      if (this.closed || this.model !== model || this.channel) return;
      this.open(model).then(
        () => this.logger.info('channel reopened'),
        (err: unknown) => {
          this.logger.warn({ err }, 'reopening the channel failed');
          if (!this.closed && this.model === model && !this.channel) this.scheduleReopen(model);
        },
      );
    }, delayMs);
  }

  private cancelReopen(): void {
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.reopenTimer = null;
  }
}
