import { bearerAuthorization } from './bearer-authorization.js';

describe(bearerAuthorization.name, () => {
  it.each([
    ['Bearer abc', 'Bearer abc'],
    ['bearer    abc   ', 'bearer abc'],
    ['Bearer abc\t', 'Bearer abc'],
  ])('reads %j as %j', (header, read) => {
    expect(bearerAuthorization(header)).toBe(read);
  });

  it.each(['Bearer', 'Bearer a b', 'Bearer\tabc', ''])('passes %j on as sent', (header) => {
    expect(bearerAuthorization(header)).toBe(header);
  });

  it('passes on no header', () => {
    expect(bearerAuthorization(undefined)).toBeUndefined();
  });
});
