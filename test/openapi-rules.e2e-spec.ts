import request from 'supertest';
import { submissionStub, submissionFrom, type SubmissionBody } from './fixtures/submission.stub.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { createClient, createUser, ingestCaller, obtainTokens, TOKEN_PATH } from './utils/auth-fixtures.js';
import { SENSOR_RECORD_URL, submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * The OpenAPI description against the service: every enum value, bound, length and pattern the
 * document states for a submission is tried on the service, which must accept what the document
 * allows and refuse what it does not; every documented error message is provoked and compared with
 * the real answer. Nothing here names a rule: the cases come from the document.
 */

interface Schema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  example?: unknown;
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  $ref?: string;
}

interface OpenApiDocument {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

interface Operation {
  requestBody?: { content: Record<string, { schema?: Schema & { minItems?: number }; examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    { content?: Record<string, { example?: { message?: string }; examples?: Record<string, { value: unknown }> }> }
  >;
}

/** A documented member: where it sits in a submission and the schema of its bare value. */
interface Member {
  path: string;
  value: Schema;
  place: (body: SubmissionBody, value: unknown) => void;
}

type Case = [description: string, member: Member, value: unknown, status: 201 | 406];

const schemaName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** Every member of the submission schema, found by walking it from the request body's schema. */
function members(
  document: OpenApiDocument,
  name: string,
  path: string,
  locate: (body: SubmissionBody) => Record<string, unknown>,
): Member[] {
  const schema = document.components.schemas[name]!;
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]): Member[] => {
    const memberPath = path ? `${path}.${key}` : key;
    if (property.$ref) {
      return members(document, schemaName(property.$ref), memberPath, (body) => locate(body)[key] as Record<string, unknown>);
    }
    if (property.type === 'array' && property.items?.$ref) {
      return members(document, schemaName(property.items.$ref), `${memberPath}[0]`, (body) => {
        const item: Record<string, unknown> = {};
        locate(body)[key] = [item];
        return item;
      });
    }
    const bare = property.oneOf?.at(-1);
    if (!bare) throw new Error(`${memberPath} is documented without its accepted shapes`);
    return [{ path: memberPath, value: bare, place: (body, value) => void (locate(body)[key] = value) }];
  });
}

/**
 * What the document says each member accepts and refuses, as submissions of that one member. A choice
 * the service accepts but the document leaves out is found among the likeliest candidates: the
 * choices the document names for other members, and each documented choice in another letter case.
 */
function casesOf(member: Member, namedChoices: readonly unknown[]): Case[] {
  const { value } = member;
  const cases: Case[] = [];
  for (const choice of value.enum ?? []) cases.push([`documented choice ${String(choice)}`, member, choice, 201]);
  if (value.enum) {
    const documented = value.enum;
    cases.push(['a value outside the documented choices', member, `not-${String(documented[0])}`, 406]);
    const neighbours = namedChoices.filter((choice) => !documented.includes(choice));
    const otherCases = documented.flatMap((choice) => (typeof choice === 'string' ? [choice.toLowerCase(), choice.toUpperCase()] : []));
    for (const candidate of new Set([...neighbours, ...otherCases].filter((choice) => !documented.includes(choice))))
      cases.push(['a choice the document does not list for this member', member, candidate, 406]);
  }
  if (value.minimum !== undefined) {
    cases.push(['the documented minimum', member, value.minimum, 201], ['one below the minimum', member, value.minimum - 1, 406]);
  }
  if (value.maximum !== undefined) {
    cases.push(['the documented maximum', member, value.maximum, 201], ['one above the maximum', member, value.maximum + 1, 406]);
  }
  if (value.maxLength !== undefined) {
    const filler = typeof value.example === 'string' ? value.example : 'x';
    if (value.example === undefined) cases.push(['the documented maximum length', member, 'x'.repeat(value.maxLength), 201]);
    cases.push(['one character over the maximum length', member, filler.padEnd(value.maxLength + 1, '0'), 406]);
  }
  if (value.minLength !== undefined && value.minLength > 0) cases.push(['shorter than the minimum length', member, '', 406]);
  if (value.example !== undefined) cases.push(['the documented example', member, value.example, 201]);
  if (value.pattern !== undefined && typeof value.example === 'string') {
    const pattern = new RegExp(value.pattern);
    const example = value.example;
    const variants = [example.toLowerCase(), example.slice(0, -1), `${example}0`, `Z${example.slice(1)}`, ` ${example}`];
    for (const variant of variants)
      cases.push([`${JSON.stringify(variant)} as the pattern judges it`, member, variant, pattern.test(variant) ? 201 : 406]);
  }
  return cases;
}

describe('The OpenAPI description states what the service does', () => {
  let testApp: TestApp;
  let document: OpenApiDocument;
  let caller: Awaited<ReturnType<typeof ingestCaller>>;

  const server = () => testApp.app.getHttpServer();
  const createOperation = () => document.paths['/api-sensor/iot/sensor-record']!.post!;
  const readOperation = () => document.paths['/node/{nid}']!.get!;
  const batchOperation = () => document.paths['/api-sensor/iot/sensor-records']!.post!;
  const documentedMessage = (operation: Operation, status: number) =>
    operation.responses[String(status)]?.content?.['application/json']?.example?.message;

  beforeAll(async () => {
    testApp = await createTestApp();
    document = (await request(server()).get('/api-docs-json').expect(200)).body as OpenApiDocument;
  });

  beforeEach(async () => {
    await testApp.reset();
    caller = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('accepts every documented enum value, bound, length and pattern, and refuses one step outside each', async () => {
    const documented = members(document, 'CreateSensorRecordDto', '', (body) => body);
    const namedChoices = [...new Set(documented.flatMap((member) => member.value.enum ?? []))];
    const all = documented.flatMap((member) => casesOf(member, namedChoices));
    const outcomes: string[] = [];
    for (const [description, member, value, expected] of all) {
      const body = submissionFrom(submissionStub.minimal);
      member.place(body, value);
      const response = await submit(testApp.app, body, { token: caller.accessToken, format: 'json' });
      if (response.status !== expected)
        outcomes.push(`${member.path}: ${description} (${JSON.stringify(value)}) answered ${response.status}, not ${expected}`);
    }

    expect(outcomes).toEqual([]);
    // The walk found the members the document describes, choices and bounds among them.
    expect(all.filter(([, , , status]) => status === 201).length).toBeGreaterThan(30);
  });

  it('accepts at most the documented number of gateways', async () => {
    const gateways = document.components.schemas.MetadataDto!.properties!.gateways!;
    const listOf = (length: number) => {
      const body = submissionFrom(submissionStub.minimal);
      body.metadata.gateways = Array.from({ length }, () => ({ rssi: -90 }));
      return body;
    };

    await submit(testApp.app, listOf(gateways.maxItems!), { token: caller.accessToken }).expect(201);
    await submit(testApp.app, listOf(gateways.maxItems! + 1), { token: caller.accessToken }).expect(406);
  });

  it('accepts every documented request example', async () => {
    const examples = Object.values(createOperation().requestBody!.content['application/hal+json']!.examples!);

    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) await submit(testApp.app, example.value, { token: caller.accessToken }).expect(201);
  });

  it("answers a submission's documented errors with the documented messages", async () => {
    const create = createOperation();
    const invalid = submissionFrom(submissionStub.minimal);
    delete invalid.dev_id;
    invalid.payload_fields.field_event = 'not-an-event';
    const foreignType = { ...submissionStub.minimal, _links: { type: { href: 'http://example.org/rest/type/node/sensor_report' } } };

    const answers = {
      403: await submit(testApp.app, submissionStub.minimal),
      406: await submit(testApp.app, invalid, { token: caller.accessToken }),
      413: await submit(testApp.app, 'x'.repeat(64 * 1024 + 1), { token: caller.accessToken }),
      415: await submit(testApp.app, submissionStub.minimal, { token: caller.accessToken, contentType: 'text/plain' }),
      422: await submit(testApp.app, foreignType, { token: caller.accessToken }),
    };

    for (const [status, response] of Object.entries(answers)) {
      expect({ status, answered: response.status, message: response.body.message }).toEqual({
        status,
        answered: Number(status),
        message: documentedMessage(create, Number(status)),
      });
    }
  });

  it('accepts a batch of the documented example, and of the documented number of reports but not one more', async () => {
    const batch = batchOperation().requestBody!.content['application/json']!;
    const submissions = (count: number) => Array.from({ length: count }, () => submissionStub.minimal);

    for (const example of Object.values(batch.examples!))
      await submitBatch(testApp.app, example.value, { token: caller.accessToken }).expect(201);
    await submitBatch(testApp.app, submissions(batch.schema!.minItems!), { token: caller.accessToken }).expect(201);
    await submitBatch(testApp.app, submissions(batch.schema!.maxItems!), { token: caller.accessToken }).expect(201);
    await submitBatch(testApp.app, submissions(batch.schema!.maxItems! + 1), { token: caller.accessToken }).expect(413);
  });

  it("answers a batch's documented errors with the documented messages", async () => {
    const batch = batchOperation();
    const missingDevId = submissionFrom(submissionStub.minimal);
    delete missingDevId.dev_id;
    const unknownEvent = submissionFrom(submissionStub.minimal);
    unknownEvent.payload_fields.field_event = 'not-an-event';

    const answers = {
      403: await submitBatch(testApp.app, [submissionStub.minimal]),
      406: await submitBatch(testApp.app, [submissionStub.minimal, missingDevId, unknownEvent], { token: caller.accessToken }),
      413: await submitBatch(testApp.app, 'x'.repeat(2 * 1024 * 1024 + 1), { token: caller.accessToken }),
      415: await submitBatch(testApp.app, [submissionStub.minimal], { token: caller.accessToken, contentType: 'text/plain' }),
      422: await submitBatch(testApp.app, submissionStub.minimal, { token: caller.accessToken }),
    };

    for (const [status, response] of Object.entries(answers)) {
      expect({ status, answered: response.status, message: response.body.message }).toEqual({
        status,
        answered: Number(status),
        message: documentedMessage(batch, Number(status)),
      });
    }
  });

  it("answers a read's documented errors with the documented messages", async () => {
    const read = readOperation();
    const created = await submit(testApp.app, submissionStub.minimal, { token: caller.accessToken, format: 'json' }).expect(201);
    const nid = (created.body as { nid: [{ value: number }] }).nid[0].value;
    const stranger = await ingestCaller(testApp.app);
    const get = (path: string, token: string) => request(server()).get(path).set('Authorization', `Bearer ${token}`);
    const format = new URL(`http://host/?${documentedFormat(read)}`).searchParams.get('_format')!;

    const answers = {
      403: await get(`/node/${nid}`, stranger.accessToken),
      404: await get(`/node/${nid + 1000}`, caller.accessToken),
      406: await get(`/node/${nid}?_format=${encodeURIComponent(format)}`, caller.accessToken),
    };

    for (const [status, response] of Object.entries(answers)) {
      expect({ status, answered: response.status, message: JSON.parse(response.text).message }).toEqual({
        status,
        answered: Number(status),
        message: documentedMessage(read, Number(status)),
      });
    }
    // The create route names the same 406 for an unknown format in its description.
    await request(server())
      .post(`${SENSOR_RECORD_URL}?_format=${encodeURIComponent(format)}`)
      .set('Authorization', `Bearer ${caller.accessToken}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(submissionStub.minimal))
      .expect(406, { message: documentedMessage(read, 406) });
  });

  it("answers the token endpoint's documented errors with the documented bodies, and serves each documented grant type", async () => {
    const token = document.paths[TOKEN_PATH]!.post!;
    const documented = (status: number, name: string) =>
      token.responses[String(status)]?.content?.['application/json']?.examples?.[name]?.value;
    const grantTypes = (
      token.requestBody!.content['application/x-www-form-urlencoded'] as { schema?: { properties?: Record<string, Schema> } }
    ).schema!.properties!.grant_type!.enum!;
    const client = await createClient(testApp.app);
    const user = await createUser(testApp.app);
    const form = (fields: Record<string, string>) =>
      request(server())
        .post(TOKEN_PATH)
        .type('form')
        .send({ client_id: client.clientId, client_secret: client.clientSecret, ...fields });
    const password = (username: string, secret: string) => form({ grant_type: 'password', username, password: secret });
    const used = await obtainTokens(testApp.app, client, user);
    await form({ grant_type: 'refresh_token', refresh_token: used.refresh_token }).expect(200);
    const flooded = `${user.username}-flooded`;
    const { limit } = testApp.app.get<AppConfig>(APP_CONFIG).loginLimits.perUsername;
    for (let attempt = 0; attempt < limit; attempt++) await password(flooded, 'a wrong passphrase').expect(400);

    const answers: Array<[status: number, name: string, response: request.Response]> = [
      [400, 'invalid_request', await form({ grant_type: 'password', password: user.password })],
      [400, 'invalid_grant', await password(user.username, 'a wrong passphrase')],
      [400, 'invalid_refresh_token', await form({ grant_type: 'refresh_token', refresh_token: used.refresh_token })],
      [400, 'unsupported_grant_type', await form({ grant_type: 'client_credentials' })],
      [401, 'invalid_client', await form({ grant_type: 'password', client_secret: 'not-the-secret', username: user.username })],
      [429, 'too_many_requests', await password(flooded, 'a wrong passphrase')],
    ];

    for (const [status, name, response] of answers) {
      expect({ name, answered: response.status, body: response.body as unknown }).toEqual({
        name,
        answered: status,
        body: documented(status, name),
      });
    }
    for (const grantType of grantTypes) {
      expect((await form({ grant_type: String(grantType) })).body).not.toMatchObject({ error: 'unsupported_grant_type' });
    }
  });
});

/** The `_format` the documented 406 of a read names (`… the specified format <value>. …`). */
function documentedFormat(read: Operation): string {
  const message = read.responses['406']?.content?.['application/json']?.example?.message ?? '';
  const match = /the specified format (\S+)\. Supported formats/.exec(message);
  if (!match) throw new Error(`The documented 406 names no format: ${message}`);
  return `_format=${match[1]}`;
}
