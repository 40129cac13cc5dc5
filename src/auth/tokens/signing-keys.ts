import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SigningKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface SigningKeySettings {
  environment: string;
  privateKey?: string;
  publicKey?: string;
  keyDirectory: string;
}

export class SigningKeyError extends Error {}

/**
 * The RS256 key pair: from OAUTH_PRIVATE_KEY / OAUTH_PUBLIC_KEY (PEM text or a file path), else —
 * outside production — a pair generated once under the key directory.
 */
export function loadSigningKeys(settings: SigningKeySettings): SigningKeys {
  if (settings.privateKey) {
    const privateKey = parseKey('OAUTH_PRIVATE_KEY', settings.privateKey, createPrivateKey);
    const publicKey = settings.publicKey ? parseKey('OAUTH_PUBLIC_KEY', settings.publicKey, createPublicKey) : createPublicKey(privateKey);
    assertPair({ privateKey, publicKey });
    return { privateKey, publicKey };
  }
  if (settings.publicKey) {
    throw new SigningKeyError('OAUTH_PUBLIC_KEY is set but OAUTH_PRIVATE_KEY is not: tokens cannot be signed without the private key.');
  }
  if (settings.environment === 'production') {
    throw new SigningKeyError(
      'OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY must be set in production (PEM text or a file path); refusing to start without signing keys.',
    );
  }
  return generatedKeys(settings.keyDirectory);
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

function assertPair(keys: SigningKeys): void {
  const probe = randomBytes(16);
  if (!verify('sha256', probe, keys.publicKey, sign('sha256', probe, keys.privateKey))) {
    throw new SigningKeyError('OAUTH_PUBLIC_KEY does not belong to OAUTH_PRIVATE_KEY.');
  }
}

/**
 * Reads the pair kept under `directory`, creating it first when absent. The private key is written to
 * a temporary file and hard-linked into place, which fails if another process got there first — so
 * instances starting together all end up using the one pair that was linked.
 */
function generatedKeys(directory: string): SigningKeys {
  const privatePath = join(directory, 'private.key');
  const publicPath = join(directory, 'public.key');
  if (!existsSync(privatePath)) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const temporary = join(directory, `.private.key.${process.pid}.${randomBytes(6).toString('hex')}`);
    writeFileSync(temporary, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flush: true });
    try {
      linkSync(temporary, privatePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  chmodSync(privatePath, 0o600);
  const privateKey = parseKey('the generated private key', readFileSync(privatePath, 'utf8'), createPrivateKey);
  const publicKey = createPublicKey(privateKey);
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  if (!existsSync(publicPath) || readFileSync(publicPath, 'utf8') !== publicPem) {
    const temporary = join(directory, `.public.key.${process.pid}.${randomBytes(6).toString('hex')}`);
    writeFileSync(temporary, publicPem, { mode: 0o644 });
    renameSync(temporary, publicPath);
  }
  return { privateKey, publicKey };
}
