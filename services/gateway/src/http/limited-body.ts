import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@formcast/platform';

/**
 * Reads the request body into `req.body` (a Buffer) up to `limitBytes`, for routes that
 * take bodies larger than the global parser allows. An oversized body is refused with
 * AppError('too_large') before it is buffered: from `Content-Length` before reading
 * anything when the client gives one, else by counting while it streams in, stopping at
 * the limit. The rest is then dropped for at most 2 s and the connection closed, so a client
 * sending gigabytes is not read to the end, yet has time to read the answer. Only identity-encoded bodies are taken.
 */
export function readLimitedBody(limitBytes: number, describeLimit: (limitBytes: number) => string) {
  const tooLarge = (req: Request, res: Response) => {
    // Nothing more of this request is wanted: end the connection after the answer.
    res.setHeader('Connection', 'close');
    // Keep reading (and dropping) for a moment: closing with unread data makes TCP reset
    // the connection, and a client still writing then fails before it reads the 413.
    req.on('data', () => undefined);
    req.resume();
    const cutoff = setTimeout(() => req.socket.destroy(), 2000);
    cutoff.unref();
    req.socket.once('close', () => clearTimeout(cutoff));
    return new AppError('too_large', `The request body is too large: ${describeLimit(limitBytes)}`);
  };

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.readableEnded || Buffer.isBuffer(req.body)) {
      next();
      return;
    }
    const declared = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (declared === undefined && !chunked) {
      next(); // no body
      return;
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') {
      next(new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not accepted here: send the body uncompressed`));
      return;
    }
    if (declared !== undefined && Number(declared) > limitBytes) {
      next(tooLarge(req, res));
      return;
    }

    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error?: AppError) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      if (error) {
        next(error);
        return;
      }
      req.body = Buffer.concat(chunks, received);
      next();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        chunks.length = 0;
        settle(tooLarge(req, res));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle();
    const onError = () => settle(new AppError('invalid', 'The request body could not be read'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  };
}
