/**
 * The one script that changes a device's badge, run atomically by Redis. Its keys carry
 * the same hash tag (`{device:<org>:<device>}`), so they live in one slot and the script
 * also runs on Redis Cluster.
 *
 * KEYS[1]  the device's outstanding oneshot ids (a set; the badge is its SCARD)
 * KEYS[2]  the device's ended oneshot ids (a sorted set of tombstones, score = when it ended, ms)
 * KEYS[3]  the device's announced oneshot ids (a sorted set, score = when announced, ms)
 * ARGV[1]  'outstanding' or 'ended'
 * ARGV[2]  the oneshot id
 * ARGV[3]  now, in epoch ms (the caller's clock, so the script stays deterministic)
 * ARGV[4]  the tombstone TTL, in ms (also how long an announcement is remembered)
 * ARGV[5]  '1' to take the oneshot's announcement, '0' not to
 *
 * Returns { badge, 1 if the oneshot is outstanding after the change else 0, 1 if this call
 * took the announcement else 0 }.
 *
 * Tombstones and announcements older than the TTL are dropped on every change of the
 * device, and each key expires a TTL after its last addition. `ZADD GT` keeps the latest
 * end time when an `ended` is redelivered (Redis 6.2 or newer). An ended oneshot's
 * announcement is dropped with it: its tombstone already keeps it from being announced.
 */
export const recordOneshotScript = `
local now = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - ttl)
if ARGV[1] == 'ended' then
  redis.call('SREM', KEYS[1], ARGV[2])
  redis.call('ZREM', KEYS[3], ARGV[2])
  redis.call('ZADD', KEYS[2], 'GT', now, ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ttl)
elseif ARGV[1] == 'outstanding' then
  if not redis.call('ZSCORE', KEYS[2], ARGV[2]) then
    redis.call('SADD', KEYS[1], ARGV[2])
  end
else
  return redis.error_reply('unknown oneshot state ' .. tostring(ARGV[1]))
end
local outstanding = redis.call('SISMEMBER', KEYS[1], ARGV[2])
local announce = 0
if ARGV[5] == '1' and outstanding == 1 then
  announce = redis.call('ZADD', KEYS[3], 'NX', now, ARGV[2])
  if announce == 1 then redis.call('PEXPIRE', KEYS[3], ttl) end
end
return { redis.call('SCARD', KEYS[1]), outstanding, announce }
`;

