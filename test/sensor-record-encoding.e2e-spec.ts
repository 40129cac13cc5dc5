import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { submissionStub } from './fixtures/submission.stub.js';
import { INTEGRATION_KEY_MESSAGES } from '../src/integrations/key/integration-key-refusal.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { createIntegration, TTS_UPLINK_URL } from './utils/integration-api.js';
import { SENSOR_RECORD_BATCH_URL, SENSOR_RECORD_URL, storedRows } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * A body's Content-Encoding is part of the body: a caller without a valid token or key learns nothing
 * about it (docs/interface.md, the order of checks), and one with a valid token gets the 4xx the
 * encoding deserves, with nothing stored.
 */
describe('Submissions with a Content-Encoding', () => {
  let testApp: TestApp;
  let token: string;
  let apiKey: string;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
    apiKey = (await createIntegration(testApp.app, { network: 'tts' })).apiKey;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const post = (path: string, encoding: string, authorization?: string) => {
    let call = request(testApp.app.getHttpServer()).post(path).set('Content-Type', 'application/json').set('Content-Encoding', encoding);
    if (authorization !== undefined) call = call.set('Authorization', authorization);
    return call.send('{"not":"gzip"}');
  };

  describe.each([
    ['the sensor-record route', SENSOR_RECORD_URL],
    ['the batch route', SENSOR_RECORD_BATCH_URL],
  ])('on %s', (_route, path) => {
    it.each(['gzip', 'x-unknown'])('answers 403 to %s without a token, before looking at the body', async (encoding) => {
      const response = await post(path, encoding).expect(403);

      expect(response.body).toEqual(FORBIDDEN_CREATE);
    });

    it('answers a valid token 400 for a body that does not decode, and 415 for an unknown encoding, storing nothing', async () => {
      const undecodable = [];
      for (const encoding of ['gzip', 'deflate', 'br']) undecodable.push((await post(path, encoding, `Bearer ${token}`).expect(400)).body);
      const unknown = await post(path, 'x-unknown', `Bearer ${token}`).expect(415);

      expect(undecodable).toEqual(
        ['gzip', 'deflate', 'br'].map((encoding) => ({
          message: `The request body is not valid ${encoding} data, as its Content-Encoding says.`,
        })),
      );
      expect(unknown.body).toEqual({ message: 'unsupported content encoding "x-unknown"' });
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });
  });

  describe('a body that decodes', () => {
    const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    const LIMIT = 64 * 1024;
    const postEncoded = (encoding: keyof typeof ENCODERS, text: string) =>
      request(testApp.app.getHttpServer())
        .post(`${SENSOR_RECORD_URL}?_format=json`)
        .set('Content-Type', 'application/hal+json')
        .set('Content-Encoding', encoding)
        .set('Authorization', `Bearer ${token}`)
        .serialize((bytes) => bytes as unknown as string)
        .send(ENCODERS[encoding](Buffer.from(text)));
    /** The minimal report padded with a member no rule reads, to exactly `bytes` bytes of JSON. */
    const paddedTo = (bytes: number) => {
      const text = JSON.stringify({ ...submissionStub.minimal, padding: '' });
      return text.replace('"padding":""', `"padding":"${'x'.repeat(bytes - Buffer.byteLength(text))}"`);
    };

    it.each(['gzip', 'deflate', 'br'] as const)('is stored as the report it decodes to (%s)', async (encoding) => {
      const text = JSON.stringify(submissionStub.minimal);

      const response = await postEncoded(encoding, text).expect(201);

      expect(response.body.field_sensor_id).toEqual([{ value: submissionStub.minimal.dev_id }]);
      expect(await storedRows(testApp.dataSource)).toEqual([
        expect.objectContaining({ nid: response.body.nid[0].value, field_sensor_id: submissionStub.minimal.dev_id, request_body: text }),
      ]);
    });

    it.each(['gzip', 'deflate', 'br'] as const)(
      'counts the decoded bytes against the 64 KiB limit, not the sent ones (%s)',
      async (encoding) => {
        // Both compress to a few hundred bytes.
        const atLimit = paddedTo(LIMIT);
        const overLimit = paddedTo(LIMIT + 1);

        const taken = await postEncoded(encoding, atLimit).expect(201);
        const refused = await postEncoded(encoding, overLimit).expect(413);

        expect(refused.body).toEqual({ message: 'Request body is larger than the 64 KiB limit.' });
        expect(await storedRows(testApp.dataSource)).toEqual([
          expect.objectContaining({ nid: taken.body.nid[0].value, request_body: atLimit }),
        ]);
      },
    );
  });

  it('answers 401 on an integration route without a key, and the encoding to a valid key', async () => {
    const refused = await post(TTS_UPLINK_URL, 'gzip').expect(401);
    const unknown = await post(TTS_UPLINK_URL, 'x-unknown', `Bearer ${apiKey}`).expect(415);

    expect(refused.body).toEqual({ message: INTEGRATION_KEY_MESSAGES.missing });
    expect(unknown.body).toEqual({ message: 'unsupported content encoding "x-unknown"' });
    expect(await storedRows(testApp.dataSource)).toEqual([]);
  });
});
