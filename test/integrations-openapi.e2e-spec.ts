import request from 'supertest';
import { UsersService } from '../src/auth/users/users.service.js';
import { chirpstackEventStub } from './fixtures/chirpstack-event.stub.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { CHIRPSTACK_URL, createIntegration, postChirpstackEvent, postTtsUplink, TTS_UPLINK_URL } from './utils/integration-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

interface Operation {
  security: Array<Record<string, unknown>>;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody: { content: Record<string, { examples: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    { content?: Record<string, { example?: { message?: string }; examples?: Record<string, { value: unknown }> }> }
  >;
}

/** The OpenAPI description of the integration routes against the routes themselves: its examples and messages are what they take and say. */
describe('OpenAPI description of the integration routes', () => {
  let testApp: TestApp;
  let tts: Operation;
  let chirpstack: Operation;
  let securitySchemes: Record<string, Record<string, unknown>>;

  const documentedMessage = (operation: Operation, status: number) =>
    operation.responses[String(status)]!.content!['application/json']!.example!.message;

  beforeAll(async () => {
    testApp = await createTestApp();
    const document = (await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200)).body as {
      paths: Record<string, { post: Operation }>;
      components: { securitySchemes: Record<string, Record<string, unknown>> };
    };
    securitySchemes = document.components.securitySchemes;
    tts = document.paths[TTS_UPLINK_URL]!.post;
    chirpstack = document.paths[CHIRPSTACK_URL]!.post;
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('documents both routes with the integration key, every answer and the event parameter', () => {
    for (const operation of [tts, chirpstack]) expect(operation.security).toEqual([{ 'integration-key': [] }]);
    expect(Object.keys(tts.responses).sort()).toEqual(['200', '201', '202', '401', '403', '413', '415', '422', '429', '503']);
    expect(Object.keys(chirpstack.responses).sort()).toEqual(['200', '201', '202', '400', '401', '403', '413', '415', '422', '429', '503']);
    expect(chirpstack.parameters).toContainEqual(expect.objectContaining({ name: 'event', in: 'query', required: true }));
  });

  it('describes the integration key as the opaque string integration:create gives, not as a JWT', async () => {
    const { apiKey } = await createIntegration(testApp.app, { network: 'tts' });

    expect(securitySchemes['integration-key']).toEqual({ type: 'http', scheme: 'bearer', description: expect.any(String) });
    expect(securitySchemes['integration-key']!.description).toContain(`base64url (${apiKey.length} characters)`);
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('takes its example bodies: an uplink is stored, a simulated one acknowledged', async () => {
    const ttsExamples = tts.requestBody.content['application/json']!.examples;
    const ttsKey = (await createIntegration(testApp.app, { network: 'tts' })).apiKey;
    const chirpstackKey = (await createIntegration(testApp.app, { network: 'chirpstack' })).apiKey;

    const stored = await postTtsUplink(testApp.app, ttsExamples.uplink!.value, ttsKey).expect(201);
    await postTtsUplink(testApp.app, ttsExamples.simulated!.value, ttsKey).expect(202);
    const storedFromChirpstack = await postChirpstackEvent(
      testApp.app,
      'up',
      chirpstack.requestBody.content['application/json']!.examples.up!.value,
      chirpstackKey,
    ).expect(201);

    // The documented records (the 201, and the repeated delivery's 200) are the ones the example uplinks
    // make, but for what the database assigns.
    const assigned = ['nid', 'uuid', 'vid', 'type', 'revision_timestamp', 'revision_uid', 'uid', 'created', 'changed'];
    const withoutAssigned = (record: unknown) =>
      Object.fromEntries(Object.entries(record as Record<string, unknown>).filter(([key]) => !assigned.includes(key)));
    for (const [operation, answer] of [
      [tts, stored],
      [chirpstack, storedFromChirpstack],
    ] as const) {
      const content = operation.responses['201']!.content!['application/json']!;
      const duplicate = operation.responses['200']!.content!['application/json']!.examples!.duplicate!.value;
      expect(withoutAssigned(content.example)).toEqual(withoutAssigned(answer.body));
      expect(duplicate).toEqual(content.example);
    }
  });

  it('answers its documented errors with the documented messages', async () => {
    const integration = await createIntegration(testApp.app, { network: 'tts' });
    const blocked = await createIntegration(testApp.app, { network: 'tts' });
    await testApp.app.get(UsersService).block(blocked.user.username);
    const chirpstackKey = (await createIntegration(testApp.app, { network: 'chirpstack' })).apiKey;
    const withoutDecoder = structuredClone(ttsUplinkStub.withoutDecodedPayload);

    const answers: Array<[Operation, number, request.Response]> = [
      [tts, 202, await postTtsUplink(testApp.app, withoutDecoder, integration.apiKey)],
      [tts, 401, await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, 'not-a-key')],
      [tts, 403, await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, blocked.apiKey)],
      [tts, 413, await postTtsUplink(testApp.app, 'x'.repeat(64 * 1024 + 1), integration.apiKey)],
      [tts, 415, await postTtsUplink(testApp.app, 'CgQ=', integration.apiKey, 'application/octet-stream')],
      [tts, 422, await postTtsUplink(testApp.app, '{}', integration.apiKey)],
      [chirpstack, 400, await postChirpstackEvent(testApp.app, undefined, chirpstackEventStub.up, chirpstackKey)],
      [chirpstack, 415, await postChirpstackEvent(testApp.app, 'up', 'CgQ=', chirpstackKey, 'application/octet-stream')],
      [chirpstack, 422, await postChirpstackEvent(testApp.app, 'up', '{}', chirpstackKey)],
    ];

    for (const [operation, status, response] of answers) {
      expect({ status: response.status, message: response.body.message }).toEqual({
        status,
        message: documentedMessage(operation, status),
      });
    }
  });
});
