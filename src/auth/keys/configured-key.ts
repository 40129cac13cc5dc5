import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The key pair configured for this instance, outside the database. */
export interface ConfiguredKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Where it came from, as a log line names it. */
  source: string;
}

export interface SigningKeySettings {
  environment: string;
  privateKey?: string;
  publicKey?: string;
  keyDirectory: string;
}

export class SigningKeyError extends Error {}

/**
 * The configured key pair: from OAUTH_PRIVATE_KEY / OAUTH_PUBLIC_KEY (PEM text or a file path), else —
 * outside production — the pair kept under the key directory, if one is there. Generates nothing (see
 * `generateKeyDirectoryPair`).
 */
export function readConfiguredKey(settings: SigningKeySettings): ConfiguredKey | undefined {
  if (settings.privateKey) {
    const privateKey = parseKey('OAUTH_PRIVATE_KEY', settings.privateKey, createPrivateKey);
    const publicKey = settings.publicKey ? parseKey('OAUTH_PUBLIC_KEY', settings.publicKey, createPublicKey) : createPublicKey(privateKey);
    assertPair(privateKey, publicKey);
    return { privateKey, publicKey, source: 'OAUTH_PRIVATE_KEY' };
  }
  if (settings.publicKey) {
    throw new SigningKeyError('OAUTH_PUBLIC_KEY is set but OAUTH_PRIVATE_KEY is not: tokens cannot be signed without the private key.');
  }
  if (settings.environment === 'production' || !existsSync(join(settings.keyDirectory, 'private.key'))) return undefined;
  return directoryPair(settings.keyDirectory);
}

function parseKey(variable: string, value: string, create: (pem: string) => KeyObject): KeyObject {
  let pem = value;
  if (!value.includes('-----BEGIN')) {
    try {
      pem = readFileSync(value, 'utf8');
    } catch (error) {
      throw new SigningKeyError(`${variable} is neither PEM text nor a readable file (${(error as Error).message}).`);
    }
  }
  let key: KeyObject;
  try {
    key = create(pem.replace(/\\n/g, '\n'));
  } catch (error) {
    throw new SigningKeyError(`${variable} does not hold a valid PEM key (${(error as Error).message}).`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new SigningKeyError(`${variable} must be an RSA key (RS256).`);
  return key;
}

function assertPair(privateKey: KeyObject, publicKey: KeyObject): void {
  const probe = randomBytes(16);
  if (!verify('sha256', probe, publicKey, sign('sha256', probe, privateKey))) {
    throw new SigningKeyError('OAUTH_PUBLIC_KEY does not belong to OAUTH_PRIVATE_KEY.');
  }
}

/**
 * Creates the pair kept under `directory` when it is absent, and reads it. The private key is written
 * to a temporary file and hard-linked into place, which fails if another process got there first — so
 * instances starting together all end up using the one pair that was linked. `created` says whether
 * this call made the pair.
 */
export function generateKeyDirectoryPair(directory: string): ConfiguredKey & { created: boolean } {
  const privatePath = join(directory, 'private.key');
  let created = false;
  if (!existsSync(privatePath)) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const temporary = join(directory, `.private.key.${process.pid}.${randomBytes(6).toString('hex')}`);
    writeFileSync(temporary, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flush: true });
    try {
      linkSync(temporary, privatePath);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return { ...directoryPair(directory), created };
}

/** The pair under `directory`, its public half written beside the private one when missing or stale. */
function directoryPair(directory: string): ConfiguredKey {
  const privatePath = join(directory, 'private.key');
  const publicPath = join(directory, 'public.key');
  chmodSync(privatePath, 0o600);
  const privateKey = parseKey(`the private key in ${directory}`, readFileSync(privatePath, 'utf8'), createPrivateKey);
  const publicKey = createPublicKey(privateKey);
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  if (!existsSync(publicPath) || readFileSync(publicPath, 'utf8') !== publicPem) {
    const temporary = join(directory, `.public.key.${process.pid}.${randomBytes(6).toString('hex')}`);
    writeFileSync(temporary, publicPem, { mode: 0o644 });
    renameSync(temporary, publicPath);
  }
  return { privateKey, publicKey, source: directory };
}
