import { Command } from 'commander';
import type { DeadLetterQueueView, DeadLetterView } from '@formcast/contracts';
import { queueName } from '../arguments';
import { contextOf } from '../command-context';
import { table } from '../output';

const letterPath = (queue: string, id: string) => `/dead_letters/${queue}/${encodeURIComponent(id)}`;

/** A subcommand on one dead letter, named by its queue and id. */
function onOneLetter(
  deadLetters: Command,
  name: string,
  description: string,
  run: (queue: string, id: string, context: ReturnType<typeof contextOf>) => Promise<void>,
): void {
  deadLetters
    .command(name)
    .description(description)
    .argument('<queue>', 'a service name, e.g. notifier', queueName)
    .argument('<id>', 'the event (envelope) id')
    .action((queue: string, id: string, _options: object, command: Command) => run(queue, id, contextOf(command)));
}

export function deadLettersCommand(): Command {
  const deadLetters = new Command('dead-letters').description(
    "events a service's handler kept failing on, per queue (the service's name): list, show, replay, drop",
  );

  deadLetters
    .command('list')
    .description('the dead-letter queues and their depth; with a queue, the dead letters in it, oldest first')
    .argument('[queue]', 'a service name, e.g. notifier', queueName)
    .action(async (queue: string | undefined, _options: object, command: Command) => {
      const { client, output } = contextOf(command);
      if (queue === undefined) {
        const listed = await client.get<{ dead_letter_queues: DeadLetterQueueView[] }>('/dead_letters');
        output.result(listed, () => table(['QUEUE', 'DEPTH'], listed.dead_letter_queues.map((q) => [q.queue, q.depth])));
        return;
      }
      const listed = await client.get<{ queue: string; depth: number; dead_letters: DeadLetterView[] }>(`/dead_letters/${queue}`);
      output.result(listed, () =>
        table(
          ['ID', 'TYPE', 'OCCURRED', 'ORGANIZATION'],
          listed.dead_letters.map((letter) => [letter.id, letter.type, letter.occurred_at, letter.organization_id]),
        ),
      );
    });

  onOneLetter(deadLetters, 'show', 'one dead letter, its payload included', async (queue, id, { client, output }) => {
    const shown = await client.get<{ dead_letter: DeadLetterView }>(letterPath(queue, id));
    output.result(shown, () => describeLetter(shown.dead_letter));
  });

  onOneLetter(deadLetters, 'replay', 'send a dead letter back to its service as a first attempt, then remove it from the queue', async (queue, id, { client, output }) => {
    const replayed = await client.post<{ replayed: DeadLetterView }>(`${letterPath(queue, id)}/replay`);
    output.result(replayed, () => `Replayed ${replayed.replayed.id} (${replayed.replayed.type}) to ${queue}.`);
  });

  onOneLetter(deadLetters, 'drop', 'remove a dead letter for good', async (queue, id, { client, output }) => {
    const dropped = await client.delete<{ dropped: DeadLetterView }>(letterPath(queue, id));
    output.result(dropped, () => `Dropped ${dropped.dropped.id} (${dropped.dropped.type}) from ${queue}.`);
  });

  return deadLetters;
}

function describeLetter(letter: DeadLetterView): string {
  return [
    `id:           ${letter.id}`,
    `type:         ${letter.type}`,
    `occurred at:  ${letter.occurred_at}`,
    `organization: ${letter.organization_id ?? '-'}`,
    `request id:   ${letter.request_id}`,
    ...(letter.attachment_bytes === null ? [] : [`attachment:   ${letter.attachment_bytes} bytes`]),
    `payload:      ${JSON.stringify(letter.payload, null, 2)}`,
  ].join('\n');
}
