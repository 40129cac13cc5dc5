/** The network servers that post uplinks straight to the service (docs/interface.md#network-server-integrations). */
export const INTEGRATION_NETWORKS = ['tts', 'chirpstack'] as const;
export type IntegrationNetwork = (typeof INTEGRATION_NETWORKS)[number];

/** What a record's `dev_id` is taken from: the DevEUI, or the network server's name for the device. */
export const DEV_ID_SOURCES = ['eui', 'name'] as const;
export type DevIdSource = (typeof DEV_ID_SOURCES)[number];

/** The record's `field_network` when the integration has no label. */
export const NETWORK_NAMES: Record<IntegrationNetwork, string> = { tts: 'The Things Stack', chirpstack: 'ChirpStack' };

/** The address each network server posts its uplinks to (ChirpStack adds `?event=<event>`). */
export const UPLINK_PATHS: Record<IntegrationNetwork, string> = {
  tts: 'api-sensor/integrations/tts/uplink',
  chirpstack: 'api-sensor/integrations/chirpstack',
};

export function isIntegrationNetwork(value: string): value is IntegrationNetwork {
  return (INTEGRATION_NETWORKS as readonly string[]).includes(value);
}

export function isDevIdSource(value: string): value is DevIdSource {
  return (DEV_ID_SOURCES as readonly string[]).includes(value);
}
