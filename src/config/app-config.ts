import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { EnvironmentVariables } from './environment-variables.js';
import { readTrustProxy, type TrustProxy } from './trust-proxy.js';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** `requestTimeoutMs`: the longest one request waits for the database, all its waits together. */
export type DatabaseConfig =
  | { type: 'sqlite'; path: string; migrationsRun: boolean; requestTimeoutMs: number }
  | { type: 'mysql'; url: string; migrationsRun: boolean; poolSize: number; requestTimeoutMs: number };

export interface AppConfig {
  environment: 'development' | 'production' | 'test';
  port: number;
  /** Public address of the service, without a trailing slash: HAL links and the type href use it. */
  baseUrl: string;
  database: DatabaseConfig;
  /** The longest a request may take to arrive, its headers and body; past it the answer is 408. */
  requestBodyTimeoutMs: number;
  /** Further attempts to reach a database that refuses connections at start-up (waits 1 s, 2 s, 4 s, …). */
  databaseConnectRetries: number;
  siteTimezone: string;
  tokens: {
    accessTokenTtl: number;
    refreshTokenTtl: number;
    /** Seconds between two prunes of expired tokens and old login failures. */
    pruneIntervalSeconds: number;
    privateKey?: string;
    publicKey?: string;
    keyDirectory: string;
  };
  loginLimits: {
    perUsername: { limit: number; windowSeconds: number };
    perAddress: { limit: number; windowSeconds: number };
  };
  /** Argon2 computations at once in this process, and how many may wait for a place. */
  passwordChecks: { inFlight: number; queue: number };
  /** Batches of reports received, validated and stored at once by this instance; more answer 503. */
  batchesInFlight: number;
  /** Express's `trust proxy`, as TRUST_PROXY gives it. */
  trustProxy?: TrustProxy;
  logLevel: string;
  /**
   * Prometheus metrics: off, on the service's own port (`port` unset), or on a port of their own bound
   * to `host`; behind a bearer token when `token` is set.
   */
  metrics: { enabled: boolean; port?: number; host?: string; token?: string };
  /**
   * Sensors (docs/interface.md#sensor-state): seconds a report may come after its heartbeat period
   * before the sensor counts as overdue, and seconds between two counts of sensors per state.
   */
  sensors: { heartbeatGraceSeconds: number; metricsIntervalSeconds: number };
  /**
   * Retention (docs/operations.md#retention): records older than `recordDays` are deleted, and the
   * request bodies of records older than `requestBodyDays` emptied; either unset keeps them for ever.
   */
  retention: { recordDays?: number; requestBodyDays?: number };
  /**
   * Alerts (docs/alerts.md): seconds between two checks for silent sensors and the 24-hour clock; email
   * (docs/alerts.md#email): the SMTP server and sender when configured, and the seconds the first
   * pending notification to an address waits for others to go with it.
   */
  alerts: { clockIntervalSeconds: number; email: { smtp?: SmtpConfig; groupSeconds: number } };
  /** The fleet page: the public client it signs in as, when the operator names one. */
  fleetPage: { clientId?: string };
}

/** Where email alerts are sent from: `url` holds the SMTP password, so it is never logged or echoed. */
export interface SmtpConfig {
  url: string;
  from: string;
}

/**
 * Variables whose value an error message never repeats: a token, a key, or an address that holds a
 * password. Any other value is repeated with the password of an address in it masked.
 */
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'SMTP_URL', 'METRICS_TOKEN', 'OAUTH_PRIVATE_KEY']);

export class ConfigError extends Error {}

/** Reads and validates the environment once; the message names the first offending variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const vars = plainToInstance(EnvironmentVariables, present, { exposeDefaultValues: true });
  const errors = validateSync(vars, { skipMissingProperties: false });
  const [first] = errors;
  if (first) throw new ConfigError(`Invalid configuration: ${describe(first, present)}`);

  const port = vars.PORT;
  return {
    environment: vars.NODE_ENV as AppConfig['environment'],
    port,
    baseUrl: (vars.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    database: databaseConfig(vars),
    requestBodyTimeoutMs: vars.REQUEST_BODY_TIMEOUT_MS,
    databaseConnectRetries: vars.DB_CONNECT_RETRIES,
    siteTimezone: vars.SITE_TIMEZONE,
    tokens: {
      accessTokenTtl: vars.ACCESS_TOKEN_TTL,
      refreshTokenTtl: vars.REFRESH_TOKEN_TTL,
      pruneIntervalSeconds: vars.TOKEN_PRUNE_INTERVAL,
      privateKey: vars.OAUTH_PRIVATE_KEY,
      publicKey: vars.OAUTH_PUBLIC_KEY,
      keyDirectory: vars.OAUTH_KEY_DIR,
    },
    loginLimits: {
      perUsername: { limit: vars.LOGIN_FAILURES_PER_USERNAME, windowSeconds: vars.LOGIN_FAILURE_USERNAME_WINDOW },
      perAddress: { limit: vars.LOGIN_FAILURES_PER_ADDRESS, windowSeconds: vars.LOGIN_FAILURE_ADDRESS_WINDOW },
    },
    passwordChecks: { inFlight: vars.PASSWORD_CHECKS_IN_FLIGHT, queue: vars.PASSWORD_CHECK_QUEUE },
    batchesInFlight: vars.BATCHES_IN_FLIGHT,
    trustProxy: vars.TRUST_PROXY === undefined ? undefined : readTrustProxy(vars.TRUST_PROXY),
    logLevel: vars.LOG_LEVEL,
    metrics: metricsConfig(vars),
    sensors: { heartbeatGraceSeconds: vars.SENSOR_HEARTBEAT_GRACE, metricsIntervalSeconds: vars.SENSOR_METRICS_INTERVAL },
    retention: { recordDays: vars.RECORD_RETENTION_DAYS, requestBodyDays: vars.REQUEST_BODY_RETENTION_DAYS },
    alerts: {
      clockIntervalSeconds: vars.ALERT_CLOCK_INTERVAL,
      email: { smtp: smtpConfig(vars), groupSeconds: vars.ALERT_EMAIL_GROUP_SECONDS },
    },
    fleetPage: { clientId: vars.FLEET_PAGE_CLIENT_ID },
  };
}

function metricsConfig(vars: EnvironmentVariables): AppConfig['metrics'] {
  const { METRICS_ENABLED: enabled, METRICS_PORT: port, METRICS_HOST: host, METRICS_TOKEN: token } = vars;
  if (host !== undefined && port === undefined) {
    throw new ConfigError(
      "Invalid configuration: METRICS_HOST needs METRICS_PORT (metrics on the service's own port are served wherever the service listens)",
    );
  }
  if (port !== undefined && port === vars.PORT) {
    throw new ConfigError(
      'Invalid configuration: METRICS_PORT must differ from PORT (leave METRICS_PORT unset to serve /metrics on the service port)',
    );
  }
  return { enabled, ...(port !== undefined && { port, host: host ?? '127.0.0.1' }), ...(token !== undefined && { token }) };
}

function smtpConfig(vars: EnvironmentVariables): SmtpConfig | undefined {
  const { SMTP_URL: url, ALERT_EMAIL_FROM: from } = vars;
  if (url === undefined && from === undefined) return undefined;
  if (url === undefined)
    throw new ConfigError('Invalid configuration: ALERT_EMAIL_FROM needs SMTP_URL, the server email alerts are sent through');
  if (from === undefined)
    throw new ConfigError('Invalid configuration: SMTP_URL needs ALERT_EMAIL_FROM, the address email alerts are sent from');
  let hostname = '';
  try {
    hostname = new URL(url).hostname;
  } catch {
    // Said below, without the address: it holds the password.
  }
  if (hostname === '') throw new ConfigError('Invalid configuration: SMTP_URL is not a valid smtp:// or smtps:// address');
  return { url, from };
}

function databaseConfig(vars: EnvironmentVariables): DatabaseConfig {
  const url = vars.DATABASE_URL;
  if (url.startsWith('sqlite:')) {
    return {
      type: 'sqlite',
      path: url.slice('sqlite:'.length),
      migrationsRun: vars.DB_MIGRATIONS_RUN,
      requestTimeoutMs: vars.DB_REQUEST_TIMEOUT_MS,
    };
  }
  try {
    new URL(url);
  } catch {
    throw new ConfigError('Invalid configuration: DATABASE_URL is not a valid mysql:// address');
  }
  return {
    type: 'mysql',
    url,
    migrationsRun: vars.DB_MIGRATIONS_RUN,
    poolSize: vars.DB_POOL_SIZE,
    requestTimeoutMs: vars.DB_REQUEST_TIMEOUT_MS,
  };
}

/**
 * Every broken rule of the first offending variable (only its kind when it is not a number), each
 * naming it, with the value as it was given unless it is secret (README, Configuration).
 */
function describe(error: ValidationError, given: Record<string, string | undefined>): string {
  const constraints = error.constraints ?? {};
  // A value that is no number breaks its range rules only as a consequence: its kind is the one to fix.
  const kind = constraints.isInt ?? constraints.isNumber;
  const reasons = kind === undefined ? Object.values(constraints).reverse() : [kind];
  const raw = given[error.property];
  const value =
    raw === undefined || SECRET_VARIABLES.has(error.property) ? '' : ` (got ${JSON.stringify(raw.replace(/\/\/[^/@\s]*@/, '//…@'))})`;
  return `${reasons.join('; ') || `${error.property} is invalid`}${value}`;
}
