import { ttsUplinkStub } from '../../../test/fixtures/tts-uplink.stub.js';
import { readTtsMessage } from './tts-uplink.reader.js';

const reading = (body: object) => {
  const message = readTtsMessage(structuredClone(body) as Record<string, unknown>);
  if (message?.kind !== 'uplink') throw new Error('expected an uplink');
  return message.reading;
};

describe('readTtsMessage', () => {
  it("reads an uplink message in the stack's own terms", () => {
    expect(reading(ttsUplinkStub.threeGateways)).toEqual({
      network: 'tts',
      devEui: { value: '70B3D57ED0061A4F', path: 'end_device_ids.dev_eui' },
      deviceName: { value: 'trap-0417', path: 'end_device_ids.device_id' },
      time: { value: '2026-03-04T08:15:02.401034Z', path: 'uplink_message.rx_metadata[1].gps_time' },
      gateways: [
        {
          eui: 'B827EBFFFE8A1B2C',
          rssi: { value: -97, path: 'uplink_message.rx_metadata[0].rssi' },
          snr: { value: 9.25, path: 'uplink_message.rx_metadata[0].snr' },
        },
        {
          eui: '0016C001F153A14C',
          rssi: { value: -113, path: 'uplink_message.rx_metadata[1].rssi' },
          snr: { value: -4.5, path: 'uplink_message.rx_metadata[1].snr' },
        },
        {
          eui: undefined,
          rssi: { value: -118, path: 'uplink_message.rx_metadata[2].rssi' },
          snr: { value: -9.75, path: 'uplink_message.rx_metadata[2].snr' },
        },
      ],
      gatewaysPath: 'uplink_message.rx_metadata',
      frameCounter: { value: 1842, path: 'uplink_message.f_cnt' },
      decoded: { value: ttsUplinkStub.threeGateways.uplink_message.decoded_payload, path: 'uplink_message.decoded_payload' },
      simulated: false,
      uplinkId: '70B3D57ED0061A4F:AY4NbcVyQm9hcVpHSw5Fmw==:1842',
    });
  });

  it("names the uplink by the application server's as:up correlation id when the stack gives one", () => {
    expect(reading(ttsUplinkStub.legacyCorrelationIds).uplinkId).toBe('as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB');
  });

  it("takes the network server's reception time without a gateway's GPS time, and the application server's without that", () => {
    const uplink = structuredClone(ttsUplinkStub.withoutDecodedPayload) as { uplink_message: { received_at?: string } };
    expect(reading(uplink).time).toEqual({ value: '2026-03-04T08:31:18.841774120Z', path: 'uplink_message.received_at' });

    delete uplink.uplink_message.received_at;
    expect(reading(uplink).time).toEqual({ value: '2026-03-04T08:31:19.004112873Z', path: 'received_at' });
  });

  it('reads a gateway that reports only channel_rssi', () => {
    const uplink = structuredClone(ttsUplinkStub.withoutDecodedPayload);
    const [metadata] = uplink.uplink_message.rx_metadata as Array<{ rssi?: number }>;
    delete metadata!.rssi;

    expect(reading(uplink).gateways[0]!.rssi).toEqual({ value: -99, path: 'uplink_message.rx_metadata[0].channel_rssi' });
  });

  it('tells apart the uplinks of a device without session key id (activated by personalisation) by reception time', () => {
    const uplink = structuredClone(ttsUplinkStub.withoutDecodedPayload) as { uplink_message: { session_key_id?: string; f_cnt?: number } };
    delete uplink.uplink_message.session_key_id;
    delete uplink.uplink_message.f_cnt;

    expect(reading(uplink).uplinkId).toBe('70B3D57ED0061A4F::0:2026-03-04T08:31:18.841774120Z');
  });

  it('names the uplink by its DevEUI in upper case, however the DevEUI is written', () => {
    const uplink = structuredClone(ttsUplinkStub.threeGateways);
    uplink.end_device_ids.dev_eui = '70b3d57ed0061a4f';

    expect(reading(uplink).uplinkId).toBe('70B3D57ED0061A4F:AY4NbcVyQm9hcVpHSw5Fmw==:1842');
  });

  it('names a device without DevEUI by its application and device ids', () => {
    const uplink = structuredClone(ttsUplinkStub.threeGateways) as { end_device_ids: { dev_eui?: string } };
    delete uplink.end_device_ids.dev_eui;

    expect(reading(uplink).uplinkId).toBe('predator-traps/trap-0417:AY4NbcVyQm9hcVpHSw5Fmw==:1842');
  });

  it('marks a simulated uplink', () => {
    expect(reading(ttsUplinkStub.simulated).simulated).toBe(true);
  });

  it('tells a message other than an uplink, and a body that is no message at all', () => {
    expect(readTtsMessage(structuredClone(ttsUplinkStub.joinAccept))).toEqual({ kind: 'other', type: 'join_accept' });
    expect(readTtsMessage({ uplink_message: {} })).toBeNull();
    expect(readTtsMessage({ end_device_ids: 'trap-0417' })).toBeNull();
  });
});
