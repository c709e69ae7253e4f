/**
 * The anchors connect as the bus does (packages/bus/src/amqp/amqp-connection.ts): with
 * TCP_NODELAY, so A2 bounds what the bus could do, not what Nagle's algorithm lets it.
 * BENCH_ANCHOR_NAGLE=1 connects with amqplib's default (Nagle on) instead.
 */
export const amqpSocketOptions = { noDelay: process.env.BENCH_ANCHOR_NAGLE !== '1' };
