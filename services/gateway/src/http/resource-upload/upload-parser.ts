import type { Base64DecoderOptions } from './base64-decoder';

/**
 * A resource body's parser, fed its text as it arrives. `end` gives the body's value as
 * JSON.parse or qs would, except that `resource.file.file_data`, when it is a string, is the
 * Base64Decoder that took its characters. Both may throw AppError.
 */
export interface UploadParser {
  write(text: string): void;
  end(): unknown;
}

/** What a parser needs to make the decoder of `file_data`. */
export type UploadParserOptions = Omit<Base64DecoderOptions, 'spaceIsPlus'>;
