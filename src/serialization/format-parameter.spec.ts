import { readFormatParameter } from './format-parameter.js';

describe('readFormatParameter', () => {
  it.each([
    ['/node/1', { kind: 'absent' }],
    ['/node/1?', { kind: 'absent' }],
    ['/node/1?format=json&_formats=xml', { kind: 'absent' }],
    ['/node/1?_format=json', { kind: 'value', value: 'json' }],
    ['/node/1?x=1&_format=hal_json#top', { kind: 'value', value: 'hal_json' }],
    ['/node/1?_format', { kind: 'value', value: '' }],
    ['/node/1?_format=ya%20ml', { kind: 'value', value: 'ya ml' }],
    ['/node/1?_format=50%', { kind: 'value', value: '50%' }],
    ['/node/1?%5Fformat=xml', { kind: 'value', value: 'xml' }],
  ])('reads %s as %j', (url, expected) => {
    expect(readFormatParameter(url)).toEqual(expected);
  });

  it.each([
    ['/node/1?_format=json&_format=xml', '_format=json&_format=xml', true],
    ['/node/1?_format[a]=json', '_format[a]=json', false],
    ['/node/1?_format%5Ba%5D=json', '_format%5Ba%5D=json', false],
    ['/node/1?_format[]=json&x=1', '_format[]=json', false],
    ['/node/1?_format=json&_format[b]=xml', '_format=json&_format[b]=xml', false],
  ])('keeps %s, which is not one plain value, as the query text %s (repeated: %s)', (url, given, repeated) => {
    expect(readFormatParameter(url)).toEqual({ kind: 'malformed', given, repeated });
  });
});
