import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, Validate } from 'class-validator';
import { IsTimeZoneName } from './is-time-zone-name.validator.js';
import { IsTrustProxy } from './trust-proxy.js';

const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? (({ true: true, '1': true, false: false, '0': false } as Record<string, boolean>)[value.toLowerCase()] ?? value)
    : value;

/**
 * Every environment variable the service reads, with its default. Validated once at start-up
 * (see `loadConfig`); nothing else reads `process.env`.
 */
export class EnvironmentVariables {
  /** Read before everything else (see `loadEnvFile`): the settings file to use instead of `./.env`. */
  @IsOptional()
  @IsString()
  ENV_FILE?: string;

  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'development';

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsOptional()
  // No user or password: the address is written into every answer's links and the start-up line.
  @Matches(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
    message: 'BASE_URL must be an http(s) address without user, password, query or fragment',
  })
  BASE_URL?: string;

  @Matches(/^(sqlite:.+|mysql:\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:<path>, sqlite::memory: or mysql://user:pass@host:port/db',
  })
  DATABASE_URL: string = 'sqlite:./data/sensor-records.sqlite';

  @Transform(toBoolean)
  @IsBoolean({ message: 'DB_MIGRATIONS_RUN must be true or false' })
  DB_MIGRATIONS_RUN: boolean = true;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  DB_POOL_SIZE: number = 10;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10)
  DB_CONNECT_RETRIES: number = 5;

  // A network server gives up after 5 s: the default leaves room for the rest of the request.
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(60000)
  DB_REQUEST_TIMEOUT_MS: number = 3000;

  // Node's own default is five minutes, a connection held all that time by a body cut short.
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(300000)
  REQUEST_BODY_TIMEOUT_MS: number = 10000;

  @Validate(IsTimeZoneName)
  SITE_TIMEZONE: string = 'Pacific/Auckland';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  ACCESS_TOKEN_TTL: number = 300;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  REFRESH_TOKEN_TTL: number = 1209600;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86400)
  TOKEN_PRUNE_INTERVAL: number = 600;

  @IsOptional()
  @IsString()
  OAUTH_PRIVATE_KEY?: string;

  @IsOptional()
  @IsString()
  OAUTH_PUBLIC_KEY?: string;

  @IsString()
  OAUTH_KEY_DIR: string = './data/keys';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_FAILURES_PER_USERNAME: number = 5;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_FAILURE_USERNAME_WINDOW: number = 21600;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_FAILURES_PER_ADDRESS: number = 50;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_FAILURE_ADDRESS_WINDOW: number = 3600;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  PASSWORD_CHECKS_IN_FLIGHT: number = 2;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100000)
  PASSWORD_CHECK_QUEUE: number = 32;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  BATCHES_IN_FLIGHT: number = 4;

  @IsOptional()
  @Validate(IsTrustProxy)
  TRUST_PROXY?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @Transform(toBoolean)
  @IsBoolean({ message: 'METRICS_ENABLED must be true or false' })
  METRICS_ENABLED: boolean = true;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  METRICS_PORT?: number;

  // With METRICS_PORT: the address it is bound to (loadConfig: the loopback address when unset), since
  // the metrics count every user's sensors and integrations.
  @IsOptional()
  @Matches(/^[\w.:%-]+$/, { message: 'METRICS_HOST must be an IP address or a host name' })
  METRICS_HOST?: string;

  // The scrape's bearer token (Prometheus's `authorization` setting), the characters RFC 6750 §2.1 allows.
  @IsOptional()
  @Matches(/^[\w.~+/-]{16,}=*$/, {
    message: 'METRICS_TOKEN must be at least 16 characters of A-Z, a-z, 0-9 and - . _ ~ + / (a bearer token)',
  })
  METRICS_TOKEN?: string;

  // A day: longer than any network server's retries, shorter than the 2147483647 s a heartbeat may last.
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86400)
  SENSOR_HEARTBEAT_GRACE: number = 900;

  @Type(() => Number)
  @IsInt()
  @Min(5)
  @Max(3600)
  SENSOR_METRICS_INTERVAL: number = 60;

  // Retention (docs/operations.md#retention): unset keeps records and their request bodies for ever.
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(36500)
  RECORD_RETENTION_DAYS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(36500)
  REQUEST_BODY_RETENTION_DAYS?: number;
  // Alerts (docs/alerts.md): how often one instance checks for silent sensors and the sprung
  // episodes' 24-hour clock; at most 60 s, the promise made for `silent`.
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60)
  ALERT_CLOCK_INTERVAL: number = 15;

  // Email alerts (docs/alerts.md#email): the SMTP server, as smtp://user:pass@host:587 (STARTTLS when
  // the server offers it) or smtps://user:pass@host:465 (TLS from the start). Never echoed: it holds a password.
  @IsOptional()
  @Matches(/^smtps?:\/\/[^\s/?#]+(:\d+)?\/?(\?[^\s#]*)?$/, {
    message: 'SMTP_URL must be smtp://user:password@host:port (STARTTLS when offered) or smtps://user:password@host:port (implicit TLS)',
  })
  SMTP_URL?: string;

  // The sender of email alerts: an address, or a name and an address ("Trap alerts <alerts@example.org>").
  @IsOptional()
  @IsEmail({ allow_display_name: true }, { message: 'ALERT_EMAIL_FROM must be an email address, or a name and <address>' })
  ALERT_EMAIL_FROM?: string;

  // The first pending notification to an address waits this long for others, which then go in one message.
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3600)
  ALERT_EMAIL_GROUP_SECONDS: number = 60;

  // The fleet page (docs/fleet-page.md): the public client it signs in as; without one the service
  // makes its own, `fleet-page`, on first start.
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,64}$/, { message: 'FLEET_PAGE_CLIENT_ID must be a client id: 1 to 64 printable ASCII characters' })
  FLEET_PAGE_CLIENT_ID?: string;
}
