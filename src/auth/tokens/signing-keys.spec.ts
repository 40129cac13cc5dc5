import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadSigningKeys, SigningKeyError } from './signing-keys.js';

const pem = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

describe(loadSigningKeys.name, () => {
  let directory: string;

  beforeEach(() => {
    directory = join(mkdtempSync(join(tmpdir(), 'signing-keys-')), 'keys');
  });

  afterEach(() => {
    rmSync(dirname(directory), { recursive: true, force: true });
  });

  it('reads PEM text and file paths from the configuration', () => {
    const keys = loadSigningKeys({
      environment: 'production',
      privateKey: process.env.OAUTH_PRIVATE_KEY,
      publicKey: readFileSync(process.env.OAUTH_PUBLIC_KEY!, 'utf8'),
      keyDirectory: directory,
    });

    expect(keys.privateKey.asymmetricKeyType).toBe('rsa');
    expect(keys.publicKey.type).toBe('public');
  });

  it('refuses to start in production without keys, in one line naming the variables', () => {
    const load = () => loadSigningKeys({ environment: 'production', keyDirectory: directory });

    expect(load).toThrow(SigningKeyError);
    expect(load).toThrow(/^OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY must be set in production[^\n]*$/);
  });

  it('refuses a public key that does not belong to the private key', () => {
    const { privatePem } = pem();
    const { publicPem } = pem();

    expect(() => loadSigningKeys({ environment: 'test', privateKey: privatePem, publicKey: publicPem, keyDirectory: directory })).toThrow(
      /does not belong/,
    );
  });

  it('refuses a path that cannot be read', () => {
    expect(() => loadSigningKeys({ environment: 'test', privateKey: '/no/such/key.pem', keyDirectory: directory })).toThrow(
      /OAUTH_PRIVATE_KEY is neither PEM text nor a readable file/,
    );
  });

  it('generates a pair once outside production, private key mode 0600, and reuses it', () => {
    const first = loadSigningKeys({ environment: 'development', keyDirectory: directory });
    const second = loadSigningKeys({ environment: 'development', keyDirectory: directory });

    expect(statSync(join(directory, 'private.key')).mode & 0o777).toBe(0o600);
    expect(readdirSync(directory).sort()).toEqual(['private.key', 'public.key']);
    expect(second.publicKey.export({ type: 'spki', format: 'pem' })).toEqual(first.publicKey.export({ type: 'spki', format: 'pem' }));
    expect(createPrivateKey(readFileSync(join(directory, 'private.key'))).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});
