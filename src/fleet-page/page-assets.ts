import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/**
 * Where `npm run build` writes the page (scripts/build.js): the same folder whether this file runs
 * from src/ (the tests) or from dist/.
 */
const PAGE_BUILD_DIRECTORY = fileURLToPath(new URL('../../dist/fleet-page/public/', import.meta.url));

/** The files the build writes besides index.html, each served under a name that carries its digest. */
const ASSET_FILES = ['app.js', 'app.css', 'icon.svg'] as const;
type AssetFile = (typeof ASSET_FILES)[number];

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** One file of the page, with its compressed forms made the first time a browser asks for them. */
export class PageFile {
  private readonly encoded = new Map<ContentEncoding, Buffer>();

  constructor(
    readonly contentType: string,
    private readonly body: Buffer,
  ) {
    this.encoded.set('identity', body);
  }

  bytes(encoding: ContentEncoding): Buffer {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? brotliCompressSync(this.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: this.body.length } })
          : gzipSync(this.body, { level: 9 });
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}

/** What the page needs to know of the service, written into its HTML. */
export interface PageSettings {
  clientId: string;
  siteTimeZone: string;
  tokenPath: string;
}

/**
 * The page as built: index.html with the addresses of its script, style sheet and icon and the
 * page's settings filled in, and those files by their served names (`app.<digest>.js`), so that a
 * browser may keep them for good and still never runs an old script with a new page.
 */
export class PageAssets {
  private constructor(
    readonly html: PageFile,
    private readonly files: ReadonlyMap<string, PageFile>,
  ) {}

  /** Null when the page has not been built (dist/ compiled by tsc alone). */
  static load(settings: PageSettings, directory = PAGE_BUILD_DIRECTORY): PageAssets | null {
    if (!existsSync(join(directory, 'index.html'))) return null;
    const files = new Map<string, PageFile>();
    const served = {} as Record<AssetFile, string>;
    for (const name of ASSET_FILES) {
      const body = readFileSync(join(directory, name));
      const digest = createHash('sha256').update(body).digest('base64url').slice(0, 12);
      const extension = extname(name);
      const servedName = `${name.slice(0, -extension.length)}.${digest}${extension}`;
      files.set(servedName, new PageFile(CONTENT_TYPES[extension]!, body));
      served[name] = `/${PAGE_ASSETS_PATH}/${servedName}`;
    }
    const values: Record<string, string> = {
      ...served,
      clientId: settings.clientId,
      siteTimeZone: settings.siteTimeZone,
      tokenPath: settings.tokenPath,
    };
    const template = readFileSync(join(directory, 'index.html'), 'utf8');
    const html = template.replace(/\{\{([\w.]+)\}\}/g, (placeholder, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`index.html names an unknown value ${placeholder}`);
      return escapeAttribute(value);
    });
    return new PageAssets(new PageFile(CONTENT_TYPES['.html']!, Buffer.from(html, 'utf8')), files);
  }

  file(servedName: string): PageFile | undefined {
    return this.files.get(servedName);
  }
}

/** The path the page's script, style sheet and icon are served under. */
export const PAGE_ASSETS_PATH = 'fleet-page';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
