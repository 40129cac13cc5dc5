import type { UserReference } from '../../serialization/sensor-record.model.js';
import type { DevIdSource, IntegrationNetwork } from '../integration-network.js';

/** The integration behind a valid key, as the integration guard attaches it to the request (`request.user`). */
export interface IntegrationCaller {
  integrationId: number;
  network: IntegrationNetwork;
  label: string | null;
  devIdSource: DevIdSource;
  /** The user whose records the integration creates. */
  user: UserReference & { name: string };
}
