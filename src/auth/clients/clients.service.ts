import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Repository } from 'typeorm';
import { wholeSeconds } from '../users/users.service.js';
import { OAuthClientEntity } from './oauth-client.entity.js';

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
}

const MAX_LABEL_LENGTH = 255;

@Injectable()
export class ClientsService {
  constructor(@InjectRepository(OAuthClientEntity) private readonly clients: Repository<OAuthClientEntity>) {}

  /** Registers a client; the secret (generated unless given) is returned once and kept only as a digest. */
  async create(input: { label: string; secret?: string }): Promise<CreatedClient> {
    const label = input.label.trim();
    if (label === '' || label.length > MAX_LABEL_LENGTH) {
      throw new RangeError(`The label must be 1 to ${MAX_LABEL_LENGTH} characters.`);
    }
    if (input.secret !== undefined && input.secret === '') throw new RangeError('The secret must not be empty.');
    const clientSecret = input.secret ?? randomBytes(32).toString('base64url');
    const clientId = randomUUID();
    await this.clients.insert({ clientId, label, secretHash: sha256Hex(clientSecret), created: wholeSeconds(new Date()) });
    return { clientId, clientSecret };
  }

  /** The client when the secret matches, otherwise null. */
  async authenticate(clientId: string, clientSecret: string): Promise<OAuthClientEntity | null> {
    const client = await this.clients
      .createQueryBuilder('client')
      .addSelect('client.secretHash')
      .where('client.clientId = :clientId', { clientId })
      .getOne();
    const presented = Buffer.from(sha256Hex(clientSecret), 'hex');
    const stored = Buffer.from(client?.secretHash ?? sha256Hex(''), 'hex');
    const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
    return client && matches ? client : null;
  }
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
