import { parse } from './command-options.js';

describe(parse.name, () => {
  const options = { kid: { type: 'string' } } as const;

  it('takes a value starting with a dash when it is written --name=value', () => {
    expect(parse(['--kid=-y9E4'], options)).toEqual({ kid: '-y9E4' });
  });

  it("refuses it written apart with the parser's whole message on one line, its advice included", () => {
    expect(() => parse(['--kid', '-y9E4'], options)).toThrow(/^Option '--kid' argument is ambiguous\. .*'--kid=-XYZ'\.$/);
  });
});
