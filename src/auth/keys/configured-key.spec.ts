import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ConfiguredKey, generateKeyDirectoryPair, readConfiguredKey } from './configured-key.js';

const pem = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

describe(readConfiguredKey.name, () => {
  let directory: string;

  beforeEach(() => {
    directory = join(mkdtempSync(join(tmpdir(), 'signing-keys-')), 'keys');
  });

  afterEach(() => {
    rmSync(dirname(directory), { recursive: true, force: true });
  });

  it('reads PEM text and file paths from the configuration', () => {
    const key = readConfiguredKey({
      environment: 'production',
      privateKey: process.env.OAUTH_PRIVATE_KEY,
      publicKey: readFileSync(process.env.OAUTH_PUBLIC_KEY!, 'utf8'),
      keyDirectory: directory,
    });

    expect(key?.privateKey.asymmetricKeyType).toBe('rsa');
    expect(key?.publicKey.type).toBe('public');
    expect(key?.source).toBe('OAUTH_PRIVATE_KEY');
  });

  it('finds none in production without the variables, whatever the key directory holds, and generates nothing', () => {
    generateKeyDirectoryPair(directory);

    expect(readConfiguredKey({ environment: 'production', keyDirectory: directory })).toBeUndefined();
  });

  it('finds none outside production in an empty key directory, and creates nothing there', () => {
    expect(readConfiguredKey({ environment: 'development', keyDirectory: directory })).toBeUndefined();
    expect(existsSync(directory)).toBe(false);
  });

  it('refuses a public key that does not belong to the private key', () => {
    const { privatePem } = pem();
    const { publicPem } = pem();

    expect(() => readConfiguredKey({ environment: 'test', privateKey: privatePem, publicKey: publicPem, keyDirectory: directory })).toThrow(
      /does not belong/,
    );
  });

  it('refuses a path that cannot be read', () => {
    expect(() => readConfiguredKey({ environment: 'test', privateKey: '/no/such/key.pem', keyDirectory: directory })).toThrow(
      /OAUTH_PRIVATE_KEY is neither PEM text nor a readable file/,
    );
  });

  it('generates a pair once, private key mode 0600, says it made it, and reads it back from then on', () => {
    const first = generateKeyDirectoryPair(directory);
    const second = generateKeyDirectoryPair(directory);
    const read = readConfiguredKey({ environment: 'development', keyDirectory: directory });

    expect([first.created, second.created]).toEqual([true, false]);
    expect(statSync(join(directory, 'private.key')).mode & 0o777).toBe(0o600);
    expect(readdirSync(directory).sort()).toEqual(['private.key', 'public.key']);
    const spki = (key: ConfiguredKey | undefined) => key?.publicKey.export({ type: 'spki', format: 'pem' });
    expect(spki(second)).toEqual(spki(first));
    expect(spki(read)).toEqual(spki(first));
    expect(read?.source).toBe(directory);
    expect(createPrivateKey(readFileSync(join(directory, 'private.key'))).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});
