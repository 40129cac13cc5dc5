export const RESPONSE_FORMATS = ['hal_json', 'json', 'xml'] as const;

export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** Drupal's answer when no `_format` and no Accept header pick a format. */
export const DEFAULT_RESPONSE_FORMAT: ResponseFormat = 'hal_json';

export const CONTENT_TYPES: Readonly<Record<ResponseFormat, string>> = {
  json: 'application/json',
  hal_json: 'application/hal+json',
  xml: 'text/xml; charset=UTF-8',
};

/** Lists (the sensors, the records feed) also come as CSV: one line per sensor or record (docs/interface.md#csv). */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
