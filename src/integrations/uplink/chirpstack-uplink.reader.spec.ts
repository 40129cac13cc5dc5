import { chirpstackEventStub } from '../../../test/fixtures/chirpstack-event.stub.js';
import { readChirpstackUplink } from './chirpstack-uplink.reader.js';

const read = (body: object) => readChirpstackUplink(structuredClone(body) as Record<string, unknown>);

describe('readChirpstackUplink', () => {
  it("reads an up event in ChirpStack's own terms", () => {
    expect(read(chirpstackEventStub.up)).toEqual({
      network: 'chirpstack',
      devEui: { value: '0004a30b001c1234', path: 'deviceInfo.devEui' },
      deviceName: { value: 'bait-0092', path: 'deviceInfo.deviceName' },
      time: { value: '2026-03-04T08:15:02.401034+00:00', path: 'rxInfo[1].gwTime' },
      gateways: [
        { eui: 'b827ebfffe8a1b2c', rssi: { value: -101, path: 'rxInfo[0].rssi' }, snr: { value: 7.2, path: 'rxInfo[0].snr' } },
        { eui: '0016c001f153a14c', rssi: { value: -117, path: 'rxInfo[1].rssi' }, snr: { value: -6.25, path: 'rxInfo[1].snr' } },
      ],
      gatewaysPath: 'rxInfo',
      frameCounter: { value: 377, path: 'fCnt' },
      decoded: { value: chirpstackEventStub.up.object, path: 'object' },
      simulated: false,
      uplinkId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
    });
  });

  it("takes the event's time when no gateway has GNSS time", () => {
    expect(read(chirpstackEventStub.upWithoutObject)?.time).toEqual({ value: '2026-03-04T08:45:10.002113+00:00', path: 'time' });
  });

  it('names an uplink without deduplicationId by device, counter and time', () => {
    const up = structuredClone(chirpstackEventStub.up) as { deduplicationId?: string };
    delete up.deduplicationId;

    expect(read(up)?.uplinkId).toBe('0004a30b001c1234:377:2026-03-04T08:15:02.448791+00:00');
  });

  it('gives none for a body that names no device', () => {
    expect(read({ time: '2026-03-04T08:15:02Z' })).toBeNull();
  });
});
