/** A failure the administration command line reports as one line on stderr. */
export class CliError extends Error {}

export const USAGE =
  'Usage: cli client:create --label L [--secret S] | user:create --username U --password P [--no-ingest] | user:block --username U';
