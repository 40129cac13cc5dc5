import { ExactNumber, parseWithExactNumbers } from './exact-numbers.js';

describe(parseWithExactNumbers.name, () => {
  it('reads a number a double holds as JSON.parse does, whatever digits it is written with', () => {
    const text =
      '{"a": 3.6, "b": -71, "c": 2.0005, "d": 3.6300000000000003, "e": 1e21, "f": 0.1000000000000000, "g": 1234567890.12345, "h": -0.0}';

    expect(parseWithExactNumbers(text)).toEqual(JSON.parse(text));
  });

  it('keeps as written each number no double holds, in objects and lists at any depth', () => {
    const document = parseWithExactNumbers(
      '{"v": 3.29999999999999999999999, "list": [{"value": 9999999.00000000000000001}, 2.00049999999999999999], "big": 12345678901234567890, "far": 1e400, "tiny": -1e-400, "ok": 3.3}',
    );

    expect(document).toEqual({
      v: new ExactNumber('3.29999999999999999999999'),
      list: [{ value: new ExactNumber('9999999.00000000000000001') }, new ExactNumber('2.00049999999999999999')],
      big: new ExactNumber('12345678901234567890'),
      far: new ExactNumber('1e400'),
      tiny: new ExactNumber('-1e-400'),
      ok: 3.3,
    });
  });

  it('leaves strings as they are, digits, quotes and escapes included', () => {
    const text = '{"id": "12345678901234567890", "q": "say \\"1.00000000000000000001\\"", "e": "E123", "n": 1.00000000000000000001}';

    expect(parseWithExactNumbers(text)).toEqual({
      id: '12345678901234567890',
      q: 'say "1.00000000000000000001"',
      e: 'E123',
      n: new ExactNumber('1.00000000000000000001'),
    });
  });

  it("answers JSON.parse's syntax error for a text that is not JSON", () => {
    expect(() => parseWithExactNumbers('{"v": 3.29999999999999999999999,')).toThrow(SyntaxError);
  });
});
