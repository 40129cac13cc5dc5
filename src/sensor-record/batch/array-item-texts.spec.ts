import { arrayItems } from './array-item-texts.js';

const arrayItemTexts = (json: string) => arrayItems(json).map((item) => item.text);

describe(arrayItems.name, () => {
  it('cuts each item from the text as it was sent, without the whitespace between items', () => {
    const json = '[ {"a": 3.60, "b": [1, 2]} ,\n\t{"c":{"d":1e2}}\r\n ]';

    expect(arrayItemTexts(json)).toEqual(['{"a": 3.60, "b": [1, 2]}', '{"c":{"d":1e2}}']);
  });

  it('keeps a member given twice, as sent', () => {
    expect(arrayItemTexts('[{"dev_id":"a","dev_id":"b"}]')).toEqual(['{"dev_id":"a","dev_id":"b"}']);
  });

  it('reads brackets, braces, commas and quotes inside strings as text', () => {
    const items = [{ a: '[{,}]' }, { b: 'say "hi", \\' }, { c: '\\"' }, { d: '\\\\' }, { e: 'ü\u2028😀' }, { f: '' }];
    const json = JSON.stringify(items);

    expect(arrayItemTexts(json)).toEqual(items.map((item) => JSON.stringify(item)));
  });

  it('cuts items of any kind, nested at any depth', () => {
    const items = [[[[]]], 'x,]', 12.5, null, true, {}, [], { deep: [[{ deeper: ['}'] }]] }];

    expect(arrayItemTexts(JSON.stringify(items, null, 2)).map((text) => JSON.parse(text) as unknown)).toEqual(items);
  });

  it('measures how deep each item nests, as the parsed item nests, whatever its strings hold', () => {
    const items = [{}, [], 'x', 7, null, { a: [1, { b: '[[[{{' }] }, [[[[]]]], { c: '}]' }];
    const json = JSON.stringify(items, null, 1);

    expect(arrayItems(json).map((item) => item.depth)).toEqual([1, 1, 0, 0, 0, 3, 4, 1]);
  });

  it('answers no items for an empty array', () => {
    expect(arrayItemTexts('[]')).toEqual([]);
    expect(arrayItemTexts(' [ \n ] ')).toEqual([]);
  });

  it('refuses a text that is not an array', () => {
    expect(() => arrayItemTexts('"[1, 2]')).toThrow('Not a JSON array');
    expect(() => arrayItemTexts('')).toThrow('Not a JSON array');
  });
});
