/** Where the runtime says what it did; the CLI prints it, the app and tests may stay silent. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
