import type { Driver } from 'typeorm';
import type { ColumnMetadata } from './column-metadata.js';
import { persistentValues, sqlLiteral } from './persistent-values.js';

/** A driver whose conversion marks each value, so that the test sees it was applied. */
const driver = { preparePersistentValue: (value: unknown) => (typeof value === 'string' ? `${value}_x` : value) } as unknown as Driver;
const column = (propertyName: string, more: Partial<ColumnMetadata> = {}) => ({ propertyName, ...more }) as ColumnMetadata;

describe(persistentValues.name, () => {
  it("reads each column's property and converts it as the driver does, in the columns' order", () => {
    const sut = persistentValues(driver, [column('b'), column('a')]);

    expect(sut({ a: 'x', b: 2, c: 'ignored' })).toEqual([2, 'x_x']);
  });

  it('refuses a relation column, which its property does not hold', () => {
    expect(() => persistentValues(driver, [column('owner', { relationMetadata: {} as ColumnMetadata['relationMetadata'] })])).toThrow(
      'Column owner is embedded or a relation',
    );
  });
});

describe(sqlLiteral.name, () => {
  it.each([
    [null, 'NULL'],
    [true, '1'],
    [false, '0'],
    [-1.5, '-1.5'],
    ['sensor_report', "'sensor_report_x'"],
  ])('writes %p as %s', (value, literal) => {
    expect(sqlLiteral(driver, column('c'), value)).toBe(literal);
  });

  it('refuses a string it would have to escape', () => {
    expect(() => sqlLiteral(driver, column('c'), "it's")).toThrow("Column c: it's_x is not a plain SQL literal");
  });
});
