/** AMQP 0-9-1 framing (spec 4.2.3): what the content reader and writer both need. */
export const frameHeaderBytes = 7;
export const frameEndOctet = 0xce;
/** The header and the end octet around a frame's payload. */
export const frameOverhead = frameHeaderBytes + 1;
export const frameTypeHeader = 2;
export const frameTypeBody = 3;
