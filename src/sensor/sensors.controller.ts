import { Controller, Get, HttpStatus, Inject, Param } from '@nestjs/common';
import { Authenticated } from '../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Answer } from '../common/http/answer.js';
import { csvAnswer, jsonAnswer, nextLink } from '../serialization/list-answers.js';
import { type ReadRequest, ReadRequestOf } from '../serialization/read-request.decorator.js';
import { SerializationService } from '../serialization/serialization.service.js';
import { ListSensorsQueryDto, SENSOR_LIST_DEFAULT_LIMIT } from './dto/list-sensors-query.dto.js';
import { RECENT_RECORDS_DEFAULT, ShowSensorQueryDto } from './dto/show-sensor-query.dto.js';
import { SENSORS_DENIED_MESSAGE, sensorNotFoundMessage } from './sensor.messages.js';
import { SENSOR_VIEW_MEMBERS, type SensorView } from './sensor.view.js';
import { SENSOR_LIST_FORMATS, SENSOR_SHOW_FORMATS } from './sensor-formats.js';
import { ListSensorsDocs, ShowSensorDocs } from './sensors.api-docs.js';
import { SensorsService } from './sensors.service.js';

const SENSORS_PATH = 'api-sensor/sensors';
type ListFormat = (typeof SENSOR_LIST_FORMATS)[number];

/** The caller's sensors, their state, and one sensor with its latest records (docs/interface.md#sensors). */
@Controller(SENSORS_PATH)
export class SensorsController {
  constructor(
    private readonly sensors: SensorsService,
    private readonly serialization: SerializationService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ListSensorsDocs()
  @Authenticated({ deniedMessage: SENSORS_DENIED_MESSAGE })
  async list(
    @ReadRequestOf(ListSensorsQueryDto, SENSOR_LIST_FORMATS, 'json') read: ReadRequest<ListSensorsQueryDto, ListFormat>,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<Answer> {
    const { format, query } = read;
    // A CSV without a limit is every sensor, streamed; with one it is a page, like the JSON.
    if (format === 'csv' && query.limit === undefined) {
      return csvAnswer(await this.sensors.stream(user.uid, query), csvRow, SENSOR_VIEW_MEMBERS, 'sensors.csv');
    }
    const page = await this.sensors.page(user.uid, query, query.limit ?? SENSOR_LIST_DEFAULT_LIMIT);
    const next = page.nextAfter === null ? null : this.nextUrl(query, format, page.nextAfter);
    const headers: Record<string, string> = next ? { Link: nextLink(next) } : {};
    if (format === 'csv') return csvAnswer(page.sensors, csvRow, SENSOR_VIEW_MEMBERS, 'sensors.csv', headers);
    return jsonAnswer(JSON.stringify({ sensors: page.sensors, next }), headers);
  }

  @Get(':dev_id')
  @ShowSensorDocs()
  @Authenticated({ deniedMessage: SENSORS_DENIED_MESSAGE })
  async show(
    @Param('dev_id') devId: string,
    @ReadRequestOf(ShowSensorQueryDto, SENSOR_SHOW_FORMATS, 'json') read: ReadRequest<ShowSensorQueryDto, 'json'>,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<Answer> {
    const found = await this.sensors.find(user.uid, devId, read.query.records ?? RECENT_RECORDS_DEFAULT);
    if (!found)
      throw new ApiException(HttpStatus.NOT_FOUND, sensorNotFoundMessage(devId, await this.sensors.caseVariants(user.uid, devId)));
    // Each record exactly as GET /node/{nid}?_format=json renders it.
    const records = found.records.map((record) => this.serialization.render(record, 'json').body);
    return jsonAnswer(`{"sensor":${JSON.stringify(found.sensor)},"records":[${records.join(',')}]}`);
  }

  private nextUrl(query: ListSensorsQueryDto, format: ListFormat, after: string): string {
    const parameters = new URLSearchParams();
    if (query.state !== undefined) parameters.set('state', query.state);
    if (query.sprung !== undefined) parameters.set('sprung', String(query.sprung));
    if (query.limit !== undefined) parameters.set('limit', String(query.limit));
    parameters.set('after', after);
    parameters.set('_format', format);
    return `${this.config.baseUrl}/${SENSORS_PATH}?${parameters.toString()}`;
  }
}

/** Decimals go to the CSV as numbers, so that a negative one is not taken for a formula. */
function csvRow(sensor: SensorView): object {
  return { ...sensor, last_battery_voltage: sensor.last_battery_voltage === null ? null : Number(sensor.last_battery_voltage) };
}
