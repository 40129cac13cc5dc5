export interface AuthenticatedOptions {
  /** Also require the user's permission to create sensor records. */
  requireIngest?: boolean;
  /** The 403 text; defaults to the text refusing a sensor record's creation. */
  deniedMessage?: string;
}

export const AUTHENTICATED_OPTIONS = Symbol('AUTHENTICATED_OPTIONS');

export const DEFAULT_DENIED_MESSAGE = 'You are not authorized to create this node entity of bundle sensor_report.';
