import request from 'supertest';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { asText } from './utils/raw-response.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const VIEW_DENIED = { message: "The 'access user profiles' permission is required and the user must be active." };
const TIMESTAMP = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);

describe('GET /user/:uid', () => {
  let testApp: TestApp;
  let caller: Awaited<ReturnType<typeof ingestCaller>>;

  const get = (path: string, accessToken?: string, accept?: string) => {
    let call = request(testApp.app.getHttpServer()).get(path);
    if (accessToken !== undefined) call = call.set('Authorization', `Bearer ${accessToken}`);
    if (accept !== undefined) call = call.set('Accept', accept);
    return asText(call);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    caller = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it("gives the caller their own account as Drupal's json shows a user, and nothing secret", async () => {
    const response = await get(`/user/${caller.uid}?_format=json`, caller.accessToken).expect(200);

    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({
      uid: [{ value: caller.uid }],
      uuid: [{ value: caller.uuid }],
      langcode: [{ value: 'en' }],
      name: [{ value: caller.username }],
      status: [{ value: true }],
      created: [{ value: TIMESTAMP, format: 'Y-m-d\\TH:i:sP' }],
      changed: [{ value: TIMESTAMP, format: 'Y-m-d\\TH:i:sP' }],
    });
    expect(response.body).not.toMatch(/pass|argon|secret|token/i);
  });

  it('answers hal_json by default, with its self and type links', async () => {
    const response = await get(`/user/${caller.uid}`, caller.accessToken).expect(200);

    expect(response.headers['content-type']).toBe('application/hal+json');
    const body = JSON.parse(response.body);
    expect(Object.keys(body)[0]).toBe('_links');
    expect(body._links).toEqual({
      self: { href: `http://localhost:3000/user/${caller.uid}?_format=hal_json` },
      type: { href: 'http://localhost:3000/rest/type/user/user' },
    });
    expect(body.uid).toEqual([{ value: caller.uid }]);
    expect(body.name).toEqual([{ value: caller.username, lang: 'en' }]);
  });

  it('answers xml when asked by _format or by Accept', async () => {
    const byParameter = await get(`/user/${caller.uid}?_format=xml`, caller.accessToken).expect(200);
    const byAccept = await get(`/user/${caller.uid}`, caller.accessToken, 'application/xml').expect(200);

    expect(byParameter.headers['content-type']).toBe('text/xml; charset=UTF-8');
    expect(byParameter.body).toContain(`<name><value>${caller.username}</value></name>`);
    expect(byAccept.body).toBe(byParameter.body);
  });

  it('is where a stored record links its owner', async () => {
    const created = await asText(
      request(testApp.app.getHttpServer())
        .post('/api-sensor/iot/sensor-record?_format=hal_json')
        .set('Authorization', `Bearer ${caller.accessToken}`)
        .set('Content-Type', 'application/hal+json'),
    )
      .send(JSON.stringify(submissionStub.complete))
      .expect(201);
    const links = JSON.parse(created.body)._links as Record<string, Array<{ href: string }>>;
    const ownerLink = links['http://localhost:3000/rest/relation/node/sensor_report/uid']![0]!.href;

    const response = await get(new URL(ownerLink).pathname + new URL(ownerLink).search, caller.accessToken).expect(200);

    expect(JSON.parse(response.body)._links.self.href).toBe(ownerLink);
  });

  it("refuses another user's account with Drupal's 403, and a uid that names no one with its 404", async () => {
    const stranger = await ingestCaller(testApp.app);

    const other = await get(`/user/${stranger.uid}?_format=json`, caller.accessToken).expect(403);
    const nobody = await get(`/user/${stranger.uid + 1000}?_format=json`, caller.accessToken).expect(404);

    expect(JSON.parse(other.body)).toEqual(VIEW_DENIED);
    expect(JSON.parse(nobody.body)).toEqual({
      message: 'The "user" parameter was not converted for the path "/user/{user}" (route name: "rest.entity.user.GET")',
    });
  });

  it('answers 403 without a valid token, 406 for an unknown format and 404 for a uid that is not digits', async () => {
    const anonymous = await get(`/user/${caller.uid}?_format=json`).expect(403);
    const unknownFormat = await get(`/user/${caller.uid}?_format=yaml`, caller.accessToken).expect(406);
    const notDigits = await get('/user/me?_format=json', caller.accessToken).expect(404);

    expect(JSON.parse(anonymous.body)).toEqual(VIEW_DENIED);
    expect(JSON.parse(unknownFormat.body).message).toMatch(/yaml/);
    expect(JSON.parse(notDigits.body)).toEqual({ message: 'No route found for "GET /user/me"' });
  });
});
