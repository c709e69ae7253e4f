import type { Channel, Message } from 'amqplib';

// A message can only be settled on the channel that delivered it; once that channel is
// gone, amqplib throws, and the broker will redeliver the message anyway.

export function ack(channel: Channel, message: Message): void {
  try {
    channel.ack(message);
  } catch {
    // channel closed: the message is redelivered
  }
}

/** Without requeue: the broker sends it to the queue's dead-letter exchange. */
export function deadLetter(channel: Channel, message: Message): void {
  try {
    channel.nack(message, false, false);
  } catch {
    // channel closed: the message is redelivered
  }
}

export function requeue(channel: Channel, message: Message): void {
  try {
    channel.nack(message, false, true);
  } catch {
    // channel closed: the message is redelivered
  }
}
