import { createHash } from 'node:crypto';
import { uplinkKey } from './uplink-key.js';

describe('uplinkKey', () => {
  it('names the user, the network and the uplink, readably', () => {
    expect(uplinkKey(7, 'chirpstack', '3ac7e3c4-4401-4b8d-9386-a5c902f9202d')).toBe('7:chirpstack:3ac7e3c4-4401-4b8d-9386-a5c902f9202d');
  });

  it('gives the same uplink of two users two keys', () => {
    expect(uplinkKey(7, 'tts', 'as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB')).not.toBe(uplinkKey(8, 'tts', 'as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB'));
  });

  it.each([
    ['too long for the column', 'x'.repeat(250)],
    ['not plain ASCII', 'trap-ü'],
    ['holding a control character', 'a\nb'],
  ])('uses the digest of an uplink id %s', (_case, id) => {
    const key = uplinkKey(7, 'tts', id);

    expect(key).toBe(`7:tts:sha256:${createHash('sha256').update(id, 'utf8').digest('hex')}`);
    expect(key.length).toBeLessThanOrEqual(255);
  });
});
