import { randomUUID } from 'node:crypto';
import { Agent } from 'node:https';
import type { App, Credential } from 'firebase-admin/app';
import type { Messaging } from 'firebase-admin/messaging';
import type { DeviceNotification } from '../domain/device-notification';
import { fcmMessage } from '../domain/fcm-message';
import { outcomeOfSendError, type SendOutcome } from '../domain/send-outcome';
import { maxSendBatch, type NotificationSender } from './notification-sender';
import { RetryAfterWatch } from './retry-after-watch';

export interface FirebaseSenderOptions {
  credential: Credential;
  /** Taken from the credential when it has one (a service account does). */
  projectId?: string | undefined;
  /**
   * Carries every FCM request (default: a keep-alive agent of `maxSockets` sockets). Tests
   * give one whose connections lead to a local FCM stand-in.
   */
  httpAgent?: Agent;
  /** Concurrent connections to FCM of the default agent (default 256). */
  maxSockets?: number;
  /** The clock, in epoch milliseconds (APNs expiration, Retry-After). */
  now?: () => number;
}

/**
 * Sends through firebase-admin's `sendEach`, at most 500 messages a call, over HTTP/1.1
 * (`enableLegacyHttpTransport`): that transport goes through the app's `httpAgent`, which
 * keeps connections to FCM open across batches and is how the tests reach their stand-in.
 * The SDK itself retries a 503 or a reset connection up to 4 times (honouring Retry-After);
 * what still fails becomes an outcome, with the Retry-After FCM last answered.
 */
export class FirebaseNotificationSender implements NotificationSender {
  readonly description: string;
  private readonly app: App;
  private readonly messaging: Messaging;
  private readonly agent: Agent;
  private readonly ownsAgent: boolean;
  private readonly retryAfter: RetryAfterWatch;
  private readonly now: () => number;
  private closing: Promise<void> | null = null;

  constructor(options: FirebaseSenderOptions) {
    this.now = options.now ?? Date.now;
    this.ownsAgent = options.httpAgent === undefined;
    this.agent = options.httpAgent ?? new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 256 });
    // Required here, not imported: a process without FCM credentials never loads firebase-admin (~15 MB).
    const { initializeApp } = require('firebase-admin/app') as typeof import('firebase-admin/app');
    const { getMessaging } = require('firebase-admin/messaging') as typeof import('firebase-admin/messaging');
    this.app = initializeApp(
      { credential: options.credential, httpAgent: this.agent, ...(options.projectId ? { projectId: options.projectId } : {}) },
      `formcast-notifier-${randomUUID()}`,
    );
    this.messaging = getMessaging(this.app);
    this.messaging.enableLegacyHttpTransport();
    this.retryAfter = new RetryAfterWatch(this.agent, this.now);
    this.description = options.projectId ? `fcm (project ${options.projectId})` : 'fcm';
  }

  async sendEach(notifications: DeviceNotification[]): Promise<SendOutcome[]> {
    if (notifications.length === 0) return [];
    if (notifications.length > maxSendBatch) {
      throw new Error(`At most ${maxSendBatch} notifications per sendEach, not ${notifications.length}`);
    }
    const now = this.now();
    try {
      const batch = await this.messaging.sendEach(notifications.map((n) => fcmMessage(n, now)));
      return batch.responses.map((response) =>
        response.success ? { status: 'sent' } : this.failed(response.error),
      );
    } catch (error) {
      // The whole call failed (nothing was sent): every message is tried again later.
      return notifications.map(() => this.failed(error));
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.retryAfter.stop();
      const { deleteApp } = require('firebase-admin/app') as typeof import('firebase-admin/app');
      await deleteApp(this.app);
      if (this.ownsAgent) this.agent.destroy();
    })();
    return this.closing;
  }

  private failed(error: unknown): SendOutcome {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return outcomeOfSendError(
      typeof code === 'string' ? code : 'unknown',
      typeof message === 'string' ? message : String(error),
      this.retryAfter.remainingMs(),
    );
  }
}
