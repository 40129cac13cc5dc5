import request from 'supertest';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { asText } from './utils/raw-response.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const RECORD_PATH = '/api-sensor/iot/sensor-record';
const VIEW_DENIED = { message: 'You are not authorized to view this node entity of bundle sensor_report.' };

describe('GET /node/:nid', () => {
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;

  const get = (path: string, accessToken?: string) => {
    const call = request(testApp.app.getHttpServer()).get(path);
    return asText(accessToken === undefined ? call : call.set('Authorization', `Bearer ${accessToken}`));
  };
  const submit = (format: string) =>
    asText(
      request(testApp.app.getHttpServer())
        .post(`${RECORD_PATH}?_format=${format}`)
        .set('Authorization', `Bearer ${owner.accessToken}`)
        .set('Content-Type', 'application/hal+json'),
    )
      .send(JSON.stringify(submissionStub.complete))
      .expect(201);
  const storedRows = () => testApp.dataSource.query('SELECT nid, uid FROM sensor_report ORDER BY nid');

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    owner = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it.each(['json', 'hal_json', 'xml'])('gives the owner the record as the POST answered it (%s)', async (format) => {
    const created = await submit(format);
    const nid = Number(created.headers.location?.split('/').pop());

    const response = await get(`/node/${nid}?_format=${format}`, owner.accessToken).expect(200);

    expect(response.headers['content-type']).toBe(created.headers['content-type']);
    expect(response.body).toBe(created.body);
    expect(await storedRows()).toEqual([{ nid, uid: owner.uid }]);
  });

  it('refuses another user with 403, even one allowed to submit', async () => {
    const created = await submit('json');
    const nid = Number(created.headers.location?.split('/').pop());
    const stranger = await ingestCaller(testApp.app);

    const response = await get(`/node/${nid}?_format=json`, stranger.accessToken).expect(403);

    expect(JSON.parse(response.body)).toEqual(VIEW_DENIED);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(await storedRows()).toEqual([{ nid, uid: owner.uid }]);
  });

  it.each([
    ['no token', undefined],
    ['an invalid token', 'not-a-token'],
  ])('refuses a caller with %s with 403', async (_case, accessToken) => {
    const created = await submit('json');
    const nid = Number(created.headers.location?.split('/').pop());

    const response = await get(`/node/${nid}?_format=json`, accessToken).expect(403);

    expect(JSON.parse(response.body)).toEqual(VIEW_DENIED);
    expect(await storedRows()).toHaveLength(1);
  });

  it("answers 404 with Drupal's message for a nid that holds no record", async () => {
    const created = await submit('json');
    const nid = Number(created.headers.location?.split('/').pop());

    const response = await get(`/node/${nid + 1}?_format=json`, owner.accessToken).expect(404);

    expect(JSON.parse(response.body)).toEqual({
      message: 'The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.GET")',
    });
    expect(await storedRows()).toHaveLength(1);
  });

  it.each(['abc', '1e3', '-1', '7.0'])('answers 404 "No route found" for the non-numeric nid %p', async (nid) => {
    const response = await get(`/node/${nid}?_format=json`, owner.accessToken).expect(404);

    expect(JSON.parse(response.body)).toEqual({ message: `No route found for "GET /node/${nid}"` });
    expect(await storedRows()).toEqual([]);
  });

  it('answers 400 naming the segment when the path does not decode, with or without a token', async () => {
    for (const accessToken of [owner.accessToken, undefined]) {
      const response = await get('/node/%ff?_format=json', accessToken).expect(400);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toEqual({ message: "Failed to decode param '%ff'" });
    }
  });

  it('answers 404 for a nid beyond any record without failing', async () => {
    const response = await get('/node/99999999999999999999999?_format=json', owner.accessToken).expect(404);

    expect(JSON.parse(response.body).message).toMatch(/^The "node" parameter was not converted/);
    expect(await storedRows()).toEqual([]);
  });
});
