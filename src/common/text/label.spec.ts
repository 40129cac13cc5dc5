import { MAX_LABEL_LENGTH, readLabel } from './label.js';

const REFUSAL = new RangeError('The label must be 1 to 255 characters without control characters.');

describe(readLabel.name, () => {
  it('keeps a label trimmed', () => {
    expect(readLabel('  Trap fleet ')).toBe('Trap fleet');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(readLabel('🐀'.repeat(MAX_LABEL_LENGTH))).toBe('🐀'.repeat(MAX_LABEL_LENGTH));
    expect(() => readLabel('a'.repeat(MAX_LABEL_LENGTH + 1))).toThrow(REFUSAL);
  });

  it.each([
    ['empty', ''],
    ['blank', ' \t '],
    ['a carriage return', 'a\rb'],
    ['a tab', 'a\tb'],
    ['a C0 control', 'a\u0001b'],
    ['a C1 control', 'a\u0085b'],
  ])('refuses a label that is %s', (_, label) => {
    expect(() => readLabel(label)).toThrow(REFUSAL);
  });
});
