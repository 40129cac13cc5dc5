/**
 * How the text columns compare on MySQL/MariaDB (docs/operations.md#storage): identifiers, digests and
 * fixed vocabularies exactly and one byte a character; what people write by the Unicode rules. SQLite
 * has neither collation: its migrations leave such columns binary (user names NOCASE), so a migration
 * written from a generated one passes these only on MySQL, as the committed ones do.
 */
export const ASCII = { charset: 'ascii', collation: 'ascii_bin' } as const;
export const UNICODE = { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } as const;
