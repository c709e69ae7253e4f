/**
 * The send right of one device (see DeviceSendGuard), beside its badge keys under the same
 * hash tag, so each script touches one slot and also runs on Redis Cluster.
 *
 * claim: KEYS[1] the right, KEYS[2] the device's outstanding set; ARGV[1] this process's
 * token, ARGV[2] how long the right lasts, ms. Returns the badge (SCARD) when the right is
 * taken (or already ours: renewed), -1 when another process holds it.
 */
export const claimSendRightScript = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) or redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return redis.call('SCARD', KEYS[2])
end
return -1
`;

/** release: KEYS[1] the right; ARGV[1] this process's token. Deletes it only while it is ours. */
export const releaseSendRightScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;
