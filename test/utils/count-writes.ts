import type { INestApplication } from '@nestjs/common';
import { jest } from '@jest/globals';
import { SensorRecordWriter } from '../../src/sensor-record/sensor-record-writer.js';

/** Counts the rows handed to the application's writer, so a test can wait until some are in flight; restore with jest.restoreAllMocks(). */
export function countWrites(app: INestApplication): () => number {
  let writes = 0;
  const writer = app.get(SensorRecordWriter);
  const writeTogether = writer.writeTogether.bind(writer);
  // Both routes end here: a submission is a unit of one row.
  jest.spyOn(writer, 'writeTogether').mockImplementation((rows) => {
    writes += rows.length;
    return writeTogether(rows);
  });
  return () => writes;
}
