/**
 * Size limits of the browser-mode transport, agreed with the contract. A message is what the
 * renderer's transport sends: JSON.stringify of `{ id, call, input }`, UTF-8 encoded. The contract
 * bounds every input (see INPUT_LIMITS in contract.ts); the largest valid message of any call is
 * about 3.1 MB (photos.import of 1,000 paths whose characters all need six-byte escapes, or a
 * 1 MiB job payload of three-byte characters), and test/browser/message-limits.test.ts builds
 * each call's largest message and sends it through a real socket.
 */

/** The largest request frame the server accepts; a bigger one closes the socket (1009). */
export const MAX_WIRE_REQUEST_BYTES = 4 * 1024 * 1024;
