import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../common/errors/api-exception.js';
import { negotiateFormat } from './format-negotiation.js';
import type { FormatParameter } from './format-parameter.js';

const ABSENT: FormatParameter = { kind: 'absent' };
const given = (value: string): FormatParameter => ({ kind: 'value', value });

describe(negotiateFormat.name, () => {
  const sut = negotiateFormat;

  it.each(['json', 'hal_json', 'xml'] as const)('takes _format=%s over any Accept header', (format) => {
    expect(sut(given(format), 'application/json, application/xml, application/hal+json')).toBe(format);
  });

  it.each([
    ['application/hal+json', 'hal_json'],
    ['application/json', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['Application/JSON; charset=utf-8', 'json'],
    ['text/html, application/xml', 'xml'],
    ['application/json, application/xml', 'json'],
    ['application/xml, application/json', 'xml'],
    ['application/json;q=0.5, text/xml', 'xml'],
    ['application/json;q=0.9, application/hal+json;q=0.8', 'json'],
    ['text/xml;q=0.3, application/json;q=0.3', 'xml'],
    ['application/json;q=0, text/xml;q=0.1', 'xml'],
    ['application/json;q=nonsense, text/xml;q=0.1', 'xml'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'xml'],
    ['*/*', 'hal_json'],
    ['*/*, application/json', 'hal_json'],
    ['*/*;q=0.1, application/json', 'json'],
    ['text/*', 'xml'],
    ['application/*', 'hal_json'],
    ['text/html, image/png', 'hal_json'],
    ['application/json;q=0', 'hal_json'],
    ['', 'hal_json'],
  ])('picks from Accept %p: %s', (accept, format) => {
    expect(sut(ABSENT, accept)).toBe(format);
  });

  it('answers hal_json without _format or Accept', () => {
    expect(sut(ABSENT, undefined)).toBe('hal_json');
  });

  it.each([
    [given('yaml'), 'yaml'],
    [given(''), ''],
    [given('JSON'), 'JSON'],
    [given('hal+json'), 'hal+json'],
    [given('ya\nml'), 'ya\\u000aml'],
  ])("refuses _format %p with 406 and Drupal's message, on one line", (format, shown) => {
    let thrown: unknown;
    try {
      sut(format, 'application/json');
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ApiException);
    expect((thrown as ApiException).getStatus()).toBe(HttpStatus.NOT_ACCEPTABLE);
    expect((thrown as ApiException).getResponse()).toEqual({
      message: `No route found for the specified format ${shown}. Supported formats: hal_json, json, xml.`,
    });
  });

  it.each(['_format[a]=json', '_format[]=json', '_format=json&_format[b]=xml'])(
    'refuses %p with 406 naming the bracketed parameter',
    (given) => {
      let thrown: unknown;
      try {
        sut({ kind: 'malformed', given, repeated: false }, 'application/json');
      } catch (error) {
        thrown = error;
      }

      expect(thrown).toBeInstanceOf(ApiException);
      expect([(thrown as ApiException).getStatus(), (thrown as ApiException).getResponse()]).toEqual([
        HttpStatus.NOT_ACCEPTABLE,
        {
          message: `_format is given with brackets (${given}): give one format as _format=<format>. Supported formats: hal_json, json, xml.`,
        },
      ]);
    },
  );

  it('refuses a _format given more than once with 406 saying so', () => {
    let thrown: unknown;
    try {
      sut({ kind: 'malformed', given: '_format=json&_format=xml', repeated: true }, 'application/json');
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ApiException);
    expect([(thrown as ApiException).getStatus(), (thrown as ApiException).getResponse()]).toEqual([
      HttpStatus.NOT_ACCEPTABLE,
      { message: '_format is given more than once (_format=json&_format=xml): give one format. Supported formats: hal_json, json, xml.' },
    ]);
  });
});
