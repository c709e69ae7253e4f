/** What became of one notification handed to a sender. */
export type SendOutcome =
  | { status: 'sent' }
  /** FCM no longer knows the token: clear it in the directory; never retried. */
  | { status: 'token_not_registered'; code: string; message: string }
  /** FCM refused the message itself: logged, never retried. */
  | { status: 'rejected'; code: string; message: string }
  /** Worth another try later, not before `retryAfterMs` when FCM said so. */
  | { status: 'retry'; code: string; message: string; retryAfterMs?: number };

/** Errors no retry will fix: the message itself is wrong. */
const notRetried = new Set([
  'messaging/invalid-argument',
  'messaging/invalid-recipient',
  'messaging/invalid-payload',
  'messaging/invalid-registration-token',
  'messaging/invalid-package-name',
  'messaging/invalid-data-payload-key',
  'messaging/invalid-options',
  'messaging/payload-size-limit-exceeded',
]);

/**
 * The outcome of a failed send, from its firebase-admin error code. Unavailable, rate
 * limits, network errors and anything else are retried, and dead-lettered in the end where
 * they can be looked at and replayed. That includes `third-party-auth-error` and
 * `mismatched-credential`: the SDK also reports our own rejected credentials or missing
 * permissions (HTTP 401/403) with those codes, and once the configuration is fixed the
 * dead-lettered notifications are still worth sending.
 */
export function outcomeOfSendError(code: string, message: string, retryAfterMs?: number): SendOutcome {
  if (code === 'messaging/registration-token-not-registered') return { status: 'token_not_registered', code, message };
  if (notRetried.has(code)) return { status: 'rejected', code, message };
  return retryAfterMs === undefined ? { status: 'retry', code, message } : { status: 'retry', code, message, retryAfterMs };
}
