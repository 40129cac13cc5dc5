import { userTypeHref, userUrl } from './hal-links.js';
import type { NormalizedObject, NormalizedRecord } from './normalized-value.js';
import { formatUtcTimestamp, TIMESTAMP_FORMAT } from './timestamp-format.js';

/** What `GET /user/{uid}` shows of an account: never its password, flags or tokens (docs/interface.md#users). */
export interface UserModel {
  uid: number;
  uuid: string;
  name: string;
  status: boolean;
  created: Date;
  changed: Date;
}

// Accounts, like records, are kept in the site's one language.
const USER_LANGCODE = 'en';
const UNTRANSLATABLE_FIELDS = new Set(['uid', 'uuid']);

/** The account as Drupal's json format shows a user entity: each field a list of items. */
export function normalizeUserJson(user: UserModel): NormalizedRecord {
  return {
    uid: [{ value: user.uid }],
    uuid: [{ value: user.uuid }],
    langcode: [{ value: USER_LANGCODE }],
    name: [{ value: user.name }],
    status: [{ value: user.status }],
    created: [{ value: formatUtcTimestamp(user.created), format: TIMESTAMP_FORMAT }],
    changed: [{ value: formatUtcTimestamp(user.changed), format: TIMESTAMP_FORMAT }],
  };
}

/** As Drupal's HAL normalizer shows it: `_links` first, `lang` on the items of translatable fields. */
export function normalizeUserHalJson(user: UserModel, baseUrl: string): NormalizedObject {
  const hal: NormalizedObject = {
    _links: {
      self: { href: `${userUrl(baseUrl, user.uid)}?_format=hal_json` },
      type: { href: userTypeHref(baseUrl) },
    },
  };
  for (const [field, items] of Object.entries(normalizeUserJson(user))) {
    hal[field] = UNTRANSLATABLE_FIELDS.has(field) ? items : items.map((item) => ({ ...item, lang: USER_LANGCODE }));
  }
  return hal;
}
