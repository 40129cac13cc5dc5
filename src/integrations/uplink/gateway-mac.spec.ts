import { macFromEui } from './gateway-mac.js';

describe('macFromEui', () => {
  it.each([
    ['B827EBFFFE8A1B2C', 'B8:27:EB:8A:1B:2C'],
    ['b827ebfffe8a1b2c', 'B8:27:EB:8A:1B:2C'],
    ['B8-27-EB-FF-FE-8A-1B-2C', 'B8:27:EB:8A:1B:2C'],
    ['b827:ebff:fe8a:1b2c', 'B8:27:EB:8A:1B:2C'],
  ])('reads the MAC address %s was derived from as %s', (eui, mac) => {
    expect(macFromEui(eui)).toBe(mac);
  });

  it.each([
    ['an EUI not derived from a MAC address', '0016C001F153A14C'],
    ['FFFE elsewhere than in the middle', 'FFFEB827EB8A1B2C'],
    ['too short', 'B827EBFFFE8A1B'],
    ['not hexadecimal', 'B827EBFFFE8A1BZZ'],
    ['not text', 0xb827eb8a1b2c],
    ['absent', undefined],
  ])('gives none for %s', (_case, eui) => {
    expect(macFromEui(eui)).toBeUndefined();
  });
});
