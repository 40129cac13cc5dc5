import fc from 'fast-check';
import { submissionStub, type SubmissionBody } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * The generators' seed: random unless FUZZ_SEED sets it. It is in each test's name, and fast-check
 * repeats it with the failing case, so that `FUZZ_SEED=<seed> npm test -- test/sensor-record-fuzz`
 * runs the same bodies again.
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

/**
 * How long one generated request may take before its run fails as hung. The runs are timed one by one,
 * never as a whole: a busy machine only takes longer over them, and each test's own timeout (this
 * limit for every one of its runs) ends nothing that is still making progress.
 */
const RUN_LIMIT_MS = 30_000;
const SUBMISSION_RUNS = 1200;
const HOSTILE_RUNS = 300;
const SUBMISSIONS_TIMEOUT_MS = SUBMISSION_RUNS * RUN_LIMIT_MS;
const HOSTILE_TIMEOUT_MS = HOSTILE_RUNS * RUN_LIMIT_MS;

const MEMBER_PATHS = [
  ['dev_id'],
  ['metadata'],
  ['metadata', 'time'],
  ['metadata', 'gateways'],
  ['metadata', 'gateways', '0'],
  ['metadata', 'gateways', '0', 'rssi'],
  ['metadata', 'gateways', '0', 'snr'],
  ['metadata', 'gateways', '0', 'field_rssi'],
  ['metadata', 'gateways', '0', 'field_snr'],
  ['payload_fields'],
  ...[
    'type',
    'field_event',
    'field_status',
    'field_network',
    'field_gateway',
    'field_sequence',
    'field_counter',
    'field_battery_voltage',
    'field_tilt_sensor',
    'field_timeout',
    'field_data',
  ].map((member) => ['payload_fields', member]),
  ['_links'],
  ['_links', 'type', 'href'],
  ['__proto__'],
  ['constructor'],
];

/** Values near the edges of the rules, mixed with anything JSON can hold. */
const memberValue = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.double(),
  fc.integer(),
  fc.integer({ min: -1, max: 100_000 }).map(String),
  fc
    .date({ min: new Date('1900-01-02T00:00:00Z'), max: new Date('9998-12-30T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().replace('Z', '')),
  fc.constantFrom(
    '2021-09-26T02:30:00',
    '2021-04-04 02:30',
    '1900-01-01T00:00:00+23:59',
    '9998-12-31T23:59:59-23:59',
    '2020-07-22T06:11:11.123456789012345678901234567890Z',
    '2021-02-29T10:00:00',
    'sensor_report',
    'Baitlevel',
    'b8:27:eb:0a:1b:2c',
    '9999999.0004',
    '-9999999.0005',
    '1e999',
    '-0',
    2147483647,
    -2147483649,
    1e308,
    'd'.repeat(255),
    '\u0000',
    '\ud800',
    '\ufffe',
    [],
    [{ value: { value: 1 } }],
    { target_id: ['sensor_report'] },
  ),
);

type Mutation = { path: string[]; action: 'set' | 'delete' | 'wrapList' | 'wrapObject'; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.constantFrom(...MEMBER_PATHS),
  action: fc.constantFrom('set', 'delete', 'wrapList', 'wrapObject'),
  value: memberValue,
});

function mutate(stub: SubmissionBody, mutations: Mutation[]): unknown {
  const body = structuredClone(stub) as Record<string, unknown>;
  for (const { path, action, value } of mutations) {
    let parent: Record<string, unknown> = body;
    // Each level on the way is copied before it is changed: it may be a value an earlier mutation set,
    // which fast-check hands out again (a constant) and which must not be changed, nor set inside itself.
    for (const key of path.slice(0, -1)) {
      const next = parent[key];
      parent[key] = typeof next !== 'object' || next === null ? {} : Array.isArray(next) ? [...next] : { ...next };
      parent = parent[key] as Record<string, unknown>;
    }
    const key = path.at(-1)!;
    const current = parent[key];
    if (action === 'set') Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
    else if (action === 'delete') delete parent[key];
    else if (action === 'wrapList') parent[key] = [{ value: current }];
    else parent[key] = { value: current };
  }
  return body;
}

const mutatedSubmission = fc
  .tuple(fc.constantFrom(...Object.values(submissionStub)), fc.array(mutation, { maxLength: 4 }))
  .map(([stub, mutations]) => JSON.stringify(mutate(stub, mutations)));

const submission = fc.record({
  text: fc.oneof(
    { weight: 6, arbitrary: mutatedSubmission },
    { weight: 1, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/hal+json') },
    { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/hal+json;charset=latin1') },
  ),
  format: fc.constantFrom(undefined, 'json', 'hal_json', 'xml', 'yaml'),
});

/** `depth` levels of arrays, objects or both around a value. */
function nested(depth: number, shape: 'array' | 'object' | 'mixed'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) {
    const asArray = shape === 'array' || (shape === 'mixed' && level % 2 === 0);
    value = asArray ? [value] : { value };
  }
  return value;
}

const stubs = fc.constantFrom(...Object.values(submissionStub));

const MALFORMED_UTF8 = 'Malformed UTF-8 characters, possibly incorrectly encoded';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a body's bytes are UTF-8 (a string always is). */
function isUtf8(body: string | Buffer): boolean {
  if (typeof body === 'string') return true;
  try {
    strictUtf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

/** Bodies built to break the pipeline rather than a rule: deep nesting, huge lists, bytes that are not UTF-8. */
const hostileBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc
    .tuple(
      stubs,
      fc.constantFrom(...MEMBER_PATHS),
      fc.integer({ min: 1, max: 3000 }),
      fc.constantFrom('array', 'object', 'mixed') as fc.Arbitrary<'array' | 'object' | 'mixed'>,
    )
    .map(([stub, path, depth, shape]) => JSON.stringify(mutate(stub, [{ path, action: 'set', value: nested(depth, shape) }]))),
  fc
    .tuple(
      stubs,
      fc.constantFrom(...MEMBER_PATHS),
      fc.integer({ min: 0, max: 20_000 }),
      fc.constantFrom<unknown>({}, 1, [], [[]], null, 'x', { rssi: -1 }, { value: 'Set' }),
    )
    .map(([stub, path, length, item]) =>
      JSON.stringify(mutate(stub, [{ path, action: 'set', value: Array.from({ length }, () => item) }])),
    ),
  fc.tuple(mutatedSubmission, fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.nat()).map(([text, bytes, at]) => {
    const encoded = Buffer.from(text);
    const position = at % (encoded.length + 1);
    return Buffer.concat([encoded.subarray(0, position), Buffer.from(bytes), encoded.subarray(position)]);
  }),
);

describe(`POST /api-sensor/iot/sensor-record (generated bodies, seed ${SEED})`, () => {
  let testApp: TestApp;
  let token: string;

  const storedCount = async () => Number((await testApp.dataSource.query('SELECT COUNT(*) AS n FROM sensor_report'))[0].n);
  const storedIdentity = async (nid: number) =>
    (await testApp.dataSource.query('SELECT nid, uuid FROM sensor_report WHERE nid = ?', [nid])) as Array<{ uuid: string }>;

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it(
    'never answers 5xx: a 201 with a record, or a 4xx with a JSON message',
    async () => {
      let created = 0;
      await fc.assert(
        fc.asyncProperty(submission, async ({ text, contentType, format }) => {
          const response = await submit(testApp.app, text, { token, contentType, format });

          expect(response.status).toBeLessThan(500);
          if (response.status === 201) {
            created++;
            // The answer is the stored record: its row, named by Location, carries the nid and uuid the body shows.
            const nid = Number(/\/node\/(\d+)$/.exec(String(response.headers.location))?.[1]);
            const [row] = await storedIdentity(nid);
            expect(row).toBeDefined();
            if (format === 'xml') {
              expect(response.text).toContain(`<response><nid><value>${nid}</value></nid><uuid><value>${row!.uuid}</value></uuid>`);
            } else {
              expect(JSON.parse(response.text)).toMatchObject({ nid: [{ value: nid }], uuid: [{ value: row!.uuid }] });
            }
          } else {
            expect(response.status).toBeGreaterThanOrEqual(400);
            expect(response.headers['content-type']).toMatch(/^application\/json/);
            expect(typeof response.body.message).toBe('string');
          }
        }),
        { numRuns: SUBMISSION_RUNS, seed: SEED, plugins: [fc.timeout(RUN_LIMIT_MS)] },
      );

      expect(await storedCount()).toBe(created);
    },
    SUBMISSIONS_TIMEOUT_MS,
  );

  it(
    'survives hostile bodies: never a 5xx, never a row for a body it refused, and never bytes that are not UTF-8',
    async () => {
      let stored = await storedCount();
      await fc.assert(
        fc.asyncProperty(hostileBody, async (body) => {
          const response = await submit(testApp.app, body, { token });
          const rows = await storedCount();

          expect(response.status).toBeLessThan(500);
          if (!isUtf8(body)) {
            // Decoded leniently, these bytes would be stored as U+FFFD: the body is refused before it is parsed.
            expect({ status: response.status, body: response.body }).toEqual({ status: 422, body: { message: MALFORMED_UTF8 } });
          }
          if (response.status === 201) {
            expect(rows).toBe(stored + 1);
          } else {
            expect(response.status).toBeGreaterThanOrEqual(400);
            expect(typeof response.body.message).toBe('string');
            expect(rows).toBe(stored);
          }
          stored = rows;
        }),
        { numRuns: HOSTILE_RUNS, seed: SEED, plugins: [fc.timeout(RUN_LIMIT_MS)] },
      );
    },
    HOSTILE_TIMEOUT_MS,
  );
});
