import { errorLine, parse } from './command-options.js';

describe(parse.name, () => {
  const options = { kid: { type: 'string' } } as const;

  it('takes a value starting with a dash when it is written --name=value', () => {
    expect(parse(['--kid=-y9E4'], options)).toEqual({ kid: '-y9E4' });
  });

  it("refuses it written apart with the parser's whole message on one line, its advice included", () => {
    expect(() => parse(['--kid', '-y9E4'], options)).toThrow(/^Option '--kid' argument is ambiguous\. .*'--kid=-XYZ'\.$/);
  });
});

describe(errorLine.name, () => {
  it("keeps the service's own message whole, its control characters escaped, on one line", () => {
    expect(errorLine('--email must be one email address (got "a@x.org\r\nBcc: boss@x.org").', true)).toBe(
      '--email must be one email address (got "a@x.org\\u000d\\u000aBcc: boss@x.org").',
    );
  });

  it("keeps another's message to its first line, escaped too", () => {
    expect(errorLine('Failed: connect refused\rnow\n    at Socket.connect', false)).toBe('Failed: connect refused\\u000dnow');
  });
});
