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

/**
 * The caller's settled records in the feed and whether more follow, as text. Its `next` is left out:
 * past the last settled record it is the second after the horizon, which moves with the clock, so two
 * reads a moment apart differ there (docs/interface.md#get-api-sensorsensor-records).
 */
export async function servedFeed(app: INestApplication, token: string): Promise<string> {
  const feed = JSON.parse(await body(app, `${FEED_URL}?_format=json`, token)) as { next?: string };
  delete feed.next;
  return JSON.stringify(feed);
}

async function body(app: INestApplication, path: string, token: string): Promise<string> {
  return (await read(app, path, token).expect(200)).body as string;
}
