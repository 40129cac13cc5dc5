import { isSameName, isValidName, MAX_NAME_LENGTH, nameForLog } from './user-name.js';

describe('user names', () => {
  describe(isValidName.name, () => {
    it.each(['alice', 'gateway-01', 'Ａlice', 'a'.repeat(MAX_NAME_LENGTH), '🐀'.repeat(MAX_NAME_LENGTH)])('accepts %j', (name) => {
      expect(isValidName(name)).toBe(true);
    });

    it.each([
      ['empty', ''],
      ['61 characters', 'a'.repeat(MAX_NAME_LENGTH + 1)],
      ['NUL', 'alice\0'],
      ['a line break', 'alice\nbob'],
      ['DEL', 'alice\u007f'],
      ['a C1 control', 'alice\u0085'],
      ['U+FFFF', 'alice\uffff'],
      ['an unpaired surrogate', 'alice\ud800'],
    ])('refuses %s', (_case, name) => {
      expect(isValidName(name)).toBe(false);
    });
  });

  describe(isSameName.name, () => {
    it('ignores letter case only', () => {
      expect(isSameName('alice', 'ALICE')).toBe(true);
      expect(isSameName('Straße', 'STRASSE')).toBe(false);
      expect(isSameName('alice', 'ａｌｉｃｅ')).toBe(false);
      expect(isSameName('alice', 'alice ')).toBe(false);
    });
  });

  describe(nameForLog.name, () => {
    it('cuts a name to 60 characters and shows control characters escaped', () => {
      expect(nameForLog('x'.repeat(60_000))).toBe('x'.repeat(MAX_NAME_LENGTH));
      expect(nameForLog('alice\n{"level":60}')).toBe('alice\\u000a{"level":60}');
    });
  });
});
