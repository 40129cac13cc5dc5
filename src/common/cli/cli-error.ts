/**
 * A failure the administration command line reports as one line on stderr (exit status 1); `output`,
 * when given, is what the command found out and prints on stdout first (alert:test: the receiver's answer).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly output?: Record<string, unknown>,
  ) {
    super(message);
  }
}
