/** Plain data a normalizer produces and an encoder writes: JSON's value space, keys in output order. */
export type NormalizedValue = string | number | boolean | null | NormalizedValue[] | NormalizedObject;

export interface NormalizedObject {
  [member: string]: NormalizedValue;
}

export type NormalizedItem = NormalizedObject;

/** A record: each field a list of items. */
export type NormalizedRecord = Record<string, NormalizedItem[]>;
