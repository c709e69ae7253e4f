import type { Channel } from 'amqplib';

/**
 * `publish()` returning false means "buffered; wait for 'drain' before sending more". The
 * gate holds later publishes until the channel drains (or closes, which ends the wait too).
 */
export class DrainGate {
  private blocked: Promise<void> | null = null;

  wait(): Promise<void> {
    return this.blocked ?? Promise.resolve();
  }

  /** Call with publish()'s result. */
  after(accepted: boolean, channel: Channel): void {
    if (accepted || this.blocked) return;
    this.blocked = new Promise((resolve) => {
      const release = () => {
        channel.off('drain', release);
        channel.off('close', release);
        this.blocked = null;
        resolve();
      };
      channel.on('drain', release);
      channel.on('close', release);
    });
  }
}
