import { AppError } from '@formcast/platform';
import { jsonTooDeep, maxJsonDepth } from '../json-depth';
import type { Many } from 'stream-chain/defs.js' with { 'resolution-mode': 'import' };
import type { Token } from 'stream-json/core/parser.js' with { 'resolution-mode': 'import' };

type StreamJsonParser = typeof import('stream-json/core/parser.js', { with: { 'resolution-mode': 'import' } });
type StreamChainDefs = typeof import('stream-chain/defs.js', { with: { 'resolution-mode': 'import' } });

// Both are ES modules and the gateway is CommonJS: Node ≥ 20.19 loads them with require().
const { jsonParser } = require('stream-json/core/parser.js') as StreamJsonParser;
const { none, isMany } = require('stream-chain/defs.js') as StreamChainDefs;

export type JsonToken = Token;

export interface JsonTokenizer {
  write(text: string): void;
  /** The text is complete: AppError('invalid') when it is not one whole JSON value. */
  end(): void;
}

/**
 * stream-json takes a string whole when it ends within the text it is given: fed at most
 * this much at once, the file's Base64 never becomes one string.
 */
const sliceChars = 64 * 1024;

/**
 * stream-json's tokenizer with keys, strings and numbers streamed in chunks and never packed
 * (so it never holds a value whole); each token goes to `onToken` as it is found.
 */
export function jsonTokenizer(onToken: (token: JsonToken) => void): JsonTokenizer {
  // The parser's own depth guard (stream-json ≥ 3.9) sits one level past ours, so a body ours
  // would refuse never reaches it unrefused; past it, the answer is ours too.
  const tokenize = jsonParser({ packValues: false, streamValues: true, maxDepth: maxJsonDepth + 1 });
  const run = (input: string | typeof none) => {
    let output: Many<Token> | typeof none;
    try {
      // Typed for text only: stream-chain flushes a stage by calling it with `none`, as here.
      output = (tokenize as (input: string | typeof none) => Many<Token> | typeof none)(input);
    } catch (error) {
      if (error instanceof RangeError && error.message.includes('maxDepth')) throw jsonTooDeep();
      throw new AppError('invalid', `Malformed JSON: ${(error as Error).message}`);
    }
    if (isMany(output)) for (const token of output.values) onToken(token);
  };
  return {
    write(text) {
      for (let start = 0; start < text.length; start += sliceChars) run(text.slice(start, start + sliceChars));
    },
    end() {
      run(none);
    },
  };
}
