import { readFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import type { Logger, Settings } from '@formcast/platform';
import { FirebaseNotificationSender } from './firebase-notification-sender';
import { LoggingNotificationSender } from './logging-notification-sender';
import type { NotificationSender } from './notification-sender';

export type NotificationSenderSettings = Pick<Settings, 'FCM_SERVICE_ACCOUNT' | 'GOOGLE_APPLICATION_CREDENTIALS'>;

/**
 * The sender the settings ask for: firebase-admin with the `FCM_SERVICE_ACCOUNT` key JSON,
 * else with the file `GOOGLE_APPLICATION_CREDENTIALS` names; with neither, the logging
 * sender. `httpAgent` carries the FCM requests (tests: to a local stand-in). firebase-admin
 * (about 15 MB of a process's memory) is loaded only when credentials are configured.
 */
export function openNotificationSender(
  settings: NotificationSenderSettings,
  logger: Logger,
  options: { httpAgent?: Agent } = {},
): NotificationSender {
  if (settings.FCM_SERVICE_ACCOUNT) {
    const { cert } = firebaseCredentials();
    const account = JSON.parse(settings.FCM_SERVICE_ACCOUNT) as { project_id: string };
    return new FirebaseNotificationSender({
      credential: cert(account as Parameters<typeof cert>[0]),
      projectId: account.project_id,
      ...options,
    });
  }
  if (settings.GOOGLE_APPLICATION_CREDENTIALS) {
    const file = readCredentialsFile(settings.GOOGLE_APPLICATION_CREDENTIALS);
    const { applicationDefault, cert } = firebaseCredentials();
    // A service account key is used as such; other kinds (user, workload identity…) through Google's own discovery.
    if (file.type === 'service_account' && typeof file.project_id === 'string') {
      return new FirebaseNotificationSender({
        credential: cert(settings.GOOGLE_APPLICATION_CREDENTIALS),
        projectId: file.project_id,
        ...options,
      });
    }
    return new FirebaseNotificationSender({ credential: applicationDefault(), ...options });
  }
  return new LoggingNotificationSender(logger);
}

/** firebase-admin's credential helpers, loaded only when credentials are configured (synchronously, as this is). */
function firebaseCredentials(): Pick<typeof import('firebase-admin/app'), 'applicationDefault' | 'cert'> {
  return require('firebase-admin/app') as typeof import('firebase-admin/app');
}

/** Read at start, so a missing or broken file stops the process with the setting's name, not at the first send. */
function readCredentialsFile(path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not a JSON object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new Error(`Cannot use GOOGLE_APPLICATION_CREDENTIALS for FCM: ${(error as Error).message}`, { cause: error });
  }
}
