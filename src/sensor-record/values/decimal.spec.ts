import { ExactNumber } from '../submission/exact-numbers.js';
import { readDecimal, shortestDecimal } from './decimal.js';

describe('readDecimal', () => {
  it.each([
    [3.6, '3.6'],
    ['21.00', '21'],
    [3.1415, '3.142'],
    [2.0005, '2.001'],
    ['2.0005', '2.001'],
    [-2.0005, '-2.001'],
    ['0.0005', '0.001'],
    ['0.00049999', '0'],
    ['-0.0004', '0'],
    [1e-7, '0'],
    ['1.5e3', '1500'],
    ['.5', '0.5'],
    ['+7', '7'],
    [0, '0'],
    [9999999, '9999999'],
    ['-9999999.000', '-9999999'],
    ['99999989999e-4', '9999999'],
    ['1.23456789012345678901234567890', '1.235'],
    ['1e-99999999999', '0'],
    [-71, '-71'],
    ['7.25', '7.25'],
    ['3.60', '3.6'],
    ['-0', '0'],
    ['-0.0', '0'],
    ['007', '7'],
    ['-0.125', '-0.125'],
    [9999998.999, '9999998.999'],
  ])('reads %p as %p', (raw, text) => {
    expect(readDecimal(raw)).toEqual({ kind: 'decimal', text });
  });

  it.each([['abc'], [''], ['.'], ['-'], ['1,5'], [' 1'], ['0x10'], ['Infinity'], [true], [null], [{}], [Number.NaN]])(
    'refuses %p as not a number',
    (raw) => {
      expect(readDecimal(raw)).toEqual({ kind: 'not-a-number' });
    },
  );

  it('reads every thousandth from -20 to 20, as a number and as text, as its shortest text', () => {
    for (let thousandths = -20_000; thousandths <= 20_000; thousandths++) {
      const shortest = (thousandths / 1000)
        .toFixed(3)
        .replace(/\.?0+$/, '')
        .replace(/^-0$/, '0');
      expect(readDecimal(thousandths / 1000)).toEqual({ kind: 'decimal', text: shortest });
      expect(readDecimal((thousandths / 1000).toFixed(3))).toEqual({ kind: 'decimal', text: shortest });
    }
  });

  it.each([[10_000_000], ['9999999.0005'], ['9999999.001'], [-9999999.5], ['1e8'], ['1e999'], [1e300]])(
    'refuses %p as out of range',
    (raw) => {
      expect(readDecimal(raw)).toEqual({ kind: 'out-of-range' });
    },
  );

  it.each([['9999999.0004'], [9999999.0004], ['-9999999.0004'], ['99999990001e-4'], ['9999999.00000000001']])(
    'refuses %p, beyond the range as given though it rounds into it',
    (raw) => {
      expect(readDecimal(raw)).toEqual({ kind: 'out-of-range' });
    },
  );
});

describe('readDecimal of a JSON number no double holds', () => {
  it.each([
    ['3.29999999999999999999999', '3.3'],
    ['2.00049999999999999999', '2'],
    ['-2.00050000000000000001', '-2.001'],
    ['1e-400', '0'],
  ])('reads %s on the digits it is written with, as %p', (written, text) => {
    expect(readDecimal(new ExactNumber(written))).toEqual({ kind: 'decimal', text });
  });

  it.each([['9999999.00000000000000001'], ['-9999999.00000000000000001'], ['1e400'], ['12345678901234567890']])(
    'refuses %s, beyond the range as given',
    (written) => {
      expect(readDecimal(new ExactNumber(written))).toEqual({ kind: 'out-of-range' });
    },
  );
});

describe('shortestDecimal', () => {
  it('shortens what either driver hands back', () => {
    expect(shortestDecimal('21.000')).toBe('21');
    expect(shortestDecimal('3.600')).toBe('3.6');
    expect(shortestDecimal(3.6)).toBe('3.6');
    expect(shortestDecimal('-0.250')).toBe('-0.25');
    expect(shortestDecimal(null)).toBeNull();
  });
});
