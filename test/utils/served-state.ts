import type { INestApplication } from '@nestjs/common';
import { FEED_URL, read, SENSORS_URL } from './read-side.js';

/**
 * What a caller is served: each record by GET /node/{nid}, the sensor list and the records feed, as
 * text. Two databases that serve the same state answer these identically, byte for byte.
 */
export async function servedState(app: INestApplication, token: string, nids: number[]): Promise<Record<string, string>> {
  const served: Record<string, string> = {};
  for (const nid of nids) served[`/node/${nid}`] = await body(app, `/node/${nid}?_format=json`, token);
  served.sensors = await body(app, `${SENSORS_URL}?_format=json`, token);
  served.csv = await body(app, `${SENSORS_URL}?_format=csv`, token);
  return served;
}

/** The caller's records in the feed (whatever has settled, the same on both sides when read at the same moment). */
export async function servedFeed(app: INestApplication, token: string): Promise<string> {
  return body(app, `${FEED_URL}?_format=json`, token);
}

async function body(app: INestApplication, path: string, token: string): Promise<string> {
  return (await read(app, path, token).expect(200)).body as string;
}
