import { alertEntities } from '../alerts/alert.entities.js';
import { authEntities } from '../auth/auth.entities.js';
import { IntegrationEntity } from '../integrations/integration.entity.js';
import { NodeTypeEntity } from '../sensor-record/node-type.entity.js';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';
import { SensorEntity } from '../sensor/sensor.entity.js';

/** Every TypeORM entity of the service, listed explicitly (ES modules rule out glob loading). */
export const entities: Array<new () => object> = [
  ...authEntities,
  NodeTypeEntity,
  SensorRecordEntity,
  IntegrationEntity,
  SensorEntity,
  ...alertEntities,
];
