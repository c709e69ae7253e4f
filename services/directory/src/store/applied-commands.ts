/**
 * How long both adapters remember a create's command id: as long as an Idempotency-Key lives
 * (24 h from its first claim), so a key's retry after a crash, which runs under the first
 * attempt's command id, always finds it. A redelivered command comes back within seconds.
 */
export const appliedCommandWindowMs = 24 * 60 * 60 * 1000;
