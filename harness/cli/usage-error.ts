/** A command line the CLI cannot act on (exit code 2). The message says what is wrong and what to do. */
export class UsageError extends Error {
  readonly code = 'USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
