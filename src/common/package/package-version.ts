import { readFileSync } from 'node:fs';

/**
 * The service's version, as package.json declares it (three levels up from src/common/package and
 * dist/common/package alike): the one the OpenAPI document and GET /health show, and CHANGELOG.md's
 * latest release.
 */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;
