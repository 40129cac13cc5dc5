/** A failure the administration command line reports as one line on stderr. */
export class CliError extends Error {}
