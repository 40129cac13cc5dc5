/** The grants the token endpoint serves: checked by the grants service, counted by the metrics, listed by the OpenAPI document. */
export const GRANT_TYPES = ['password', 'refresh_token'] as const;

export type GrantType = (typeof GRANT_TYPES)[number];

export function isGrantType(value: unknown): value is GrantType {
  return (GRANT_TYPES as readonly unknown[]).includes(value);
}
