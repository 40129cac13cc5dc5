import { sensorRecordTypeHref, sensorRecordUrl, userTypeHref, userUrl } from './hal-links.js';
import { SENSOR_REPORT_BUNDLE, type SensorRecordModel } from './sensor-record.model.js';
import { normalizeJson } from './json-normalizer.js';
import type { NormalizedItem, NormalizedObject } from './normalized-value.js';

const USER_REFERENCE_FIELDS = new Set(['revision_uid', 'uid']);
const UNTRANSLATABLE_FIELDS = new Set(['nid', 'uuid', 'vid', 'type', 'revision_timestamp', 'revision_uid', 'revision_log']);

/**
 * The record as Drupal's HAL normalizer shows a node: `_links` first, user references moved to
 * `_links` and `_embedded` (which lands where the first reference stood), `lang` on the items of
 * translatable fields, empty fields left out.
 */
export function normalizeHalJson(record: SensorRecordModel, baseUrl: string, siteTimezone: string): NormalizedObject {
  const lang = record.langcode;
  const links: NormalizedObject = {
    self: { href: `${sensorRecordUrl(baseUrl, record.nid)}?_format=hal_json` },
    type: { href: sensorRecordTypeHref(baseUrl) },
  };
  const embedded: NormalizedObject = {};
  const hal: NormalizedObject = { _links: links };

  for (const [field, items] of Object.entries(normalizeJson(record, siteTimezone))) {
    if (items.length === 0) continue;
    const translatable = !UNTRANSLATABLE_FIELDS.has(field);
    if (USER_REFERENCE_FIELDS.has(field)) {
      const relation = `${baseUrl}/rest/relation/node/${SENSOR_REPORT_BUNDLE}/${field}`;
      const references = items.map((item) => ({ item, link: { href: `${userUrl(baseUrl, String(item.target_id))}?_format=hal_json` } }));
      links[relation] = references.map(({ link }) => (translatable ? { href: link.href, lang } : link));
      embedded[relation] = references.map(({ item, link }) => embeddedUser(baseUrl, link, item, translatable ? lang : undefined));
      hal._embedded = embedded;
    } else if (field === 'type') {
      hal.type = items.map((item) => ({ target_id: item.target_id ?? null }));
    } else {
      hal[field] = translatable ? items.map((item) => withLang(item, lang)) : items;
    }
  }
  return hal;
}

function embeddedUser(baseUrl: string, self: NormalizedObject, reference: NormalizedItem, lang: string | undefined): NormalizedObject {
  const user: NormalizedObject = {
    _links: { self, type: { href: userTypeHref(baseUrl) } },
    uuid: [{ value: reference.target_uuid ?? null }],
  };
  if (lang !== undefined) user.lang = lang;
  return user;
}

/**
 * `lang` after the item's members, except that a timestamp's `format` stays last. Copied member by
 * member: every rendered record passes here some twenty times, and rest and spread copies cost more.
 */
function withLang(item: NormalizedItem, lang: string): NormalizedItem {
  const copy: NormalizedObject = {};
  for (const key in item) if (key !== 'format') copy[key] = (item as NormalizedObject)[key]!;
  copy.lang = lang;
  const format = (item as NormalizedObject).format;
  if (format !== undefined) copy.format = format;
  return copy;
}
