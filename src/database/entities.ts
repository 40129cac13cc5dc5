import { authEntities } from '../auth/auth.entities.js';
import { SensorReportEntity } from '../sensor-record/sensor-report.entity.js';

/** Every TypeORM entity of the service, listed explicitly (ES modules rule out glob loading). */
export const entities: Array<new () => object> = [...authEntities, SensorReportEntity];
