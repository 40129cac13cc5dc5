import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { IsNull, Repository } from 'typeorm';
import { UnknownUserError } from '../../auth/users/user-errors.js';
import { UsersService } from '../../auth/users/users.service.js';
import { sha256 } from '../../common/crypto/sha256.js';
import { readLabel } from '../../common/text/label.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { IntegrationEntity } from '../integration.entity.js';
import {
  DEV_ID_SOURCES,
  type DevIdSource,
  INTEGRATION_NETWORKS,
  type IntegrationNetwork,
  isDevIdSource,
  isIntegrationNetwork,
  UPLINK_PATHS,
} from '../integration-network.js';
import { InvalidIntegrationInputError, UnknownIntegrationError } from './integration-errors.js';

/** Random bytes of an integration key, which is sent as their base64url text: an opaque bearer token, not a JWT. */
export const INTEGRATION_KEY_BYTES = 32;

export interface CreateIntegrationInput {
  username: string;
  network: string;
  label?: string;
  devIdSource?: string;
}

export interface CreatedIntegration {
  integrationId: number;
  /** Shown once: only its digest is stored. */
  apiKey: string;
  /** Where the network server posts its uplinks. */
  webhookUrl: string;
}

export interface ListedIntegration extends IntegrationEntity {
  userName: string;
}

/** Creates, lists and revokes integrations (the administration command line's integration:* commands). */
@Injectable()
export class IntegrationsService {
  private readonly baseUrl: string;

  constructor(
    @InjectRepository(IntegrationEntity) private readonly integrations: Repository<IntegrationEntity>,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'baseUrl'>,
  ) {
    this.baseUrl = config.baseUrl;
  }

  /** A new integration for an existing user allowed to create records; its key (32 random bytes) is returned once. */
  async create(input: CreateIntegrationInput): Promise<CreatedIntegration> {
    const network = readNetwork(input.network);
    const devIdSource = readDevIdSource(input.devIdSource ?? 'eui');
    // The label becomes each record's `field_network`, whose length rule the label's own matches.
    const label = input.label === undefined ? null : readLabel(input.label);
    const user = await this.users.findByName(input.username);
    if (!user) throw new UnknownUserError(input.username);
    // Every uplink would be refused: say so now rather than through the network server's log.
    if (!user.mayCreateSensorRecords) {
      throw new InvalidIntegrationInputError(`The user "${user.name}" may not create sensor records (it was created with --no-ingest).`);
    }
    const apiKey = randomBytes(INTEGRATION_KEY_BYTES).toString('base64url');
    const inserted = await this.integrations.insert({
      uid: user.uid,
      network,
      label,
      devIdSource,
      keyHash: sha256(apiKey),
      created: wholeSeconds(new Date()),
      lastUsedAt: null,
      revokedAt: null,
    });
    return { integrationId: Number(inserted.identifiers[0]!.id), apiKey, webhookUrl: `${this.baseUrl}/${UPLINK_PATHS[network]}` };
  }

  /** Every integration, oldest first, with its user's name. */
  async list(): Promise<ListedIntegration[]> {
    const integrations = await this.integrations.find({ order: { id: 'ASC' } });
    const names = new Map((await this.users.list()).map((user) => [user.uid, user.name]));
    return integrations.map((integration) => ({ ...integration, userName: names.get(integration.uid) ?? '' }));
  }

  /**
   * Revokes the key: every instance refuses it within 5 seconds (docs/interface.md#integration-keys).
   * Revoking again changes nothing and answers as the first time.
   */
  async revoke(id: number): Promise<IntegrationEntity> {
    const now = wholeSeconds(new Date());
    await this.integrations.update({ id, revokedAt: IsNull() }, { revokedAt: now });
    const integration = await this.integrations.findOneBy({ id });
    if (!integration) throw new UnknownIntegrationError(id);
    return integration;
  }
}

function readNetwork(network: string): IntegrationNetwork {
  if (!isIntegrationNetwork(network)) throw new InvalidIntegrationInputError(`--network must be ${INTEGRATION_NETWORKS.join(' or ')}.`);
  return network;
}

function readDevIdSource(source: string): DevIdSource {
  if (!isDevIdSource(source)) throw new InvalidIntegrationInputError(`--dev-id must be ${DEV_ID_SOURCES.join(' or ')}.`);
  return source;
}
