import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});

    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ type: 'sqlite', path: './data/sensor-records.sqlite', migrationsRun: true, requestTimeoutMs: 3000 });
    expect(config.siteTimezone).toBe('Pacific/Auckland');
    expect(config.tokens.accessTokenTtl).toBe(300);
    expect(config.tokens.refreshTokenTtl).toBe(1209600);
    expect(config.passwordChecks).toEqual({ inFlight: 2, queue: 32 });
    expect(config.batchesInFlight).toBe(4);
  });

  it('reads the batches one instance holds at once', () => {
    expect(loadConfig({ BATCHES_IN_FLIGHT: '16' }).batchesInFlight).toBe(16);
  });

  it('reads the password check limits', () => {
    expect(loadConfig({ PASSWORD_CHECKS_IN_FLIGHT: '4', PASSWORD_CHECK_QUEUE: '0' }).passwordChecks).toEqual({ inFlight: 4, queue: 0 });
  });

  it('derives the base address from PORT and strips a trailing slash from BASE_URL', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ BASE_URL: 'https://traps.example.org/' }).baseUrl).toBe('https://traps.example.org');
  });

  it('reads a MySQL address, the migration switch and the database time of a request', () => {
    const config = loadConfig({
      DATABASE_URL: 'mysql://root@127.0.0.1:3306/test',
      DB_MIGRATIONS_RUN: 'false',
      DB_REQUEST_TIMEOUT_MS: '1500',
    });

    expect(config.database).toEqual({
      type: 'mysql',
      url: 'mysql://root@127.0.0.1:3306/test',
      migrationsRun: false,
      poolSize: 10,
      requestTimeoutMs: 1500,
    });
  });

  it('binds a metrics port of its own to the loopback address unless METRICS_HOST names another', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: true });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ enabled: true, port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ enabled: true, port: 9464, host: '10.0.0.5' });
    expect(loadConfig({ METRICS_TOKEN: 'scrape-secret-0123456789' }).metrics).toEqual({ enabled: true, token: 'scrape-secret-0123456789' });
  });

  it('refuses METRICS_HOST without METRICS_PORT: metrics on the service port listen where the service does', () => {
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0' })).toThrow(
      "Invalid configuration: METRICS_HOST needs METRICS_PORT (metrics on the service's own port are served wherever the service listens)",
    );
  });

  it('refuses a METRICS_PORT that is the service port, which the metrics server would then find taken', () => {
    expect(() => loadConfig({ PORT: '4913', METRICS_PORT: '4913' })).toThrow(
      'Invalid configuration: METRICS_PORT must differ from PORT (leave METRICS_PORT unset to serve /metrics on the service port)',
    );
  });

  it('names the variable, the rule it breaks and the value as given', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('Invalid configuration: PORT must not be greater than 65535 (got "70000")');
  });

  it('says only that a value which is no number must be one, not the range it then also misses', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT must be an integer number \(got "eighty"\)$/);
  });

  it.each([
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'postgres://x', /DATABASE_URL/],
    ['SITE_TIMEZONE', 'Mars/Olympus', /SITE_TIMEZONE/],
    ['ACCESS_TOKEN_TTL', '0', /ACCESS_TOKEN_TTL/],
    ['DB_MIGRATIONS_RUN', 'perhaps', /DB_MIGRATIONS_RUN/],
    ['BASE_URL', 'ftp://host', /BASE_URL/],
    ['BASE_URL', 'https://user:basepw@traps.example.org', /BASE_URL must be an http\(s\) address without user, password/],
    ['PASSWORD_CHECKS_IN_FLIGHT', '0', /PASSWORD_CHECKS_IN_FLIGHT/],
    ['PASSWORD_CHECK_QUEUE', '-1', /PASSWORD_CHECK_QUEUE/],
    ['BATCHES_IN_FLIGHT', '0', /BATCHES_IN_FLIGHT/],
    ['DB_REQUEST_TIMEOUT_MS', '100', /DB_REQUEST_TIMEOUT_MS/],
    ['DB_REQUEST_TIMEOUT_MS', '5s', /DB_REQUEST_TIMEOUT_MS/],
    ['REQUEST_BODY_TIMEOUT_MS', '50', /REQUEST_BODY_TIMEOUT_MS/],
    ['REQUEST_BODY_TIMEOUT_MS', '300001', /REQUEST_BODY_TIMEOUT_MS/],
    ['METRICS_HOST', 'metrics host', /METRICS_HOST/],
    ['METRICS_TOKEN', 'short', /METRICS_TOKEN/],
    ['METRICS_TOKEN', 'has a space in it somewhere', /METRICS_TOKEN/],
    ['ALERT_EMAIL_GROUP_SECONDS', '3601', /ALERT_EMAIL_GROUP_SECONDS/],
    ['ALERT_EMAIL_FROM', 'alerts at example.org', /ALERT_EMAIL_FROM/],
  ])('refuses %s=%s with a message naming the variable', (name, value, pattern) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(pattern);
  });

  /** The message loadConfig refuses `env` with. */
  const refusal = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error(`${JSON.stringify(env)} was accepted`);
  };

  it.each([
    ['DATABASE_URL', 'mysqll://u:secretpw@h/db', 'secretpw'],
    ['DATABASE_URL', 'postgres://u:secretpw@h/db', 'secretpw'],
    ['METRICS_TOKEN', 'secret token with spaces', 'secret token'],
    ['METRICS_TOKEN', 'short-secret', 'short-secret'],
    ['BASE_URL', 'https://u:secretpw@traps.example.org/?q', 'secretpw'],
  ])('refuses %s=%s naming the variable, never repeating the secret', (name, value, secret) => {
    const message = refusal({ [name]: value });

    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toContain(secret);
  });

  it('reads TRUST_PROXY as Express does: true, false, a hop count, or addresses and subnets', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', 'fd00::1']);
    expect(loadConfig({}).trustProxy).toBeUndefined();
  });

  it.each(['banana', '10.0.0.1,banana', '10.0.0.0/33'])('refuses TRUST_PROXY=%s at start-up, naming the variable', (value) => {
    expect(refusal({ TRUST_PROXY: value })).toBe(
      'Invalid configuration: TRUST_PROXY must be true, false, a hop count, or IP addresses and subnets separated by commas ' +
        `(loopback, linklocal and uniquelocal name theirs) (got ${JSON.stringify(value)})`,
    );
  });

  describe('email alerts', () => {
    const smtp = { SMTP_URL: 'smtp://alerts:s3cret-pass@mail.example.org:587', ALERT_EMAIL_FROM: 'Trap alerts <alerts@example.org>' };

    it('has no SMTP server unless SMTP_URL and ALERT_EMAIL_FROM are set, and groups for 60 s by default', () => {
      expect(loadConfig({}).alerts.email).toEqual({ groupSeconds: 60 });
      expect(loadConfig({ ...smtp, ALERT_EMAIL_GROUP_SECONDS: '0' }).alerts.email).toEqual({
        smtp: { url: smtp.SMTP_URL, from: smtp.ALERT_EMAIL_FROM },
        groupSeconds: 0,
      });
    });

    it('refuses SMTP_URL without ALERT_EMAIL_FROM, and the other way round, without echoing the password', () => {
      expect(() => loadConfig({ SMTP_URL: smtp.SMTP_URL })).toThrow(
        'Invalid configuration: SMTP_URL needs ALERT_EMAIL_FROM, the address email alerts are sent from',
      );
      expect(() => loadConfig({ ALERT_EMAIL_FROM: smtp.ALERT_EMAIL_FROM })).toThrow(
        'Invalid configuration: ALERT_EMAIL_FROM needs SMTP_URL, the server email alerts are sent through',
      );
    });

    it.each(['http://alerts:s3cret-pass@mail.example.org', 'smtp://alerts:s3cret-pass@', 'smtp://alerts:s3cret-pass@mail example.org'])(
      'refuses SMTP_URL=%s naming the variable, never its password',
      (url) => {
        let message = '';
        try {
          loadConfig({ ...smtp, SMTP_URL: url });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toMatch(/^Invalid configuration: SMTP_URL /);
        expect(message).not.toContain('s3cret-pass');
      },
    );
  });
});
