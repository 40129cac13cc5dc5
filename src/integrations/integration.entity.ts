import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../auth/users/user.entity.js';
import { ASCII, UNICODE } from '../database/text-columns.js';
import type { DevIdSource, IntegrationNetwork } from './integration-network.js';

/**
 * One network-server integration: a long-lived API key (kept only as a digest) with which one network
 * server posts the uplinks of one user's devices. Revoked, never deleted: records name it.
 */
@Entity({
  name: 'integrations',
  comment: 'Network-server integrations: long-lived API keys by digest, each for one user and one network server.',
})
@Index('integrations_key_hash', ['keyHash'], { unique: true })
@Index('integrations_uid', ['uid'])
export class IntegrationEntity {
  @PrimaryGeneratedColumn({
    type: 'int',
    name: 'id',
    comment: 'Integration id, as in integration:revoke --id, sensor_report.integration_id and the metrics label.',
  })
  id!: number;

  /** The user whose records the integration creates; it goes with the user. */
  @Column({ type: 'int', name: 'uid', comment: 'users.uid of the user whose records the integration creates.' })
  @ForeignKey(() => UserEntity, { name: 'integrations_uid_fk', onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  uid!: number;

  @Column({
    type: 'varchar',
    name: 'network',
    length: 16,
    ...ASCII,
    comment: 'Network server: tts (The Things Stack v3) or chirpstack (ChirpStack v4).',
  })
  network!: IntegrationNetwork;

  /** Stored as the records' `field_network` when set. */
  @Column({
    type: 'varchar',
    name: 'label',
    length: 255,
    nullable: true,
    ...UNICODE,
    comment:
      "Name the operator gave the integration, stored as its records' field_network; NULL: the network server's name is stored instead.",
  })
  label!: string | null;

  @Column({
    type: 'varchar',
    name: 'dev_id_source',
    length: 8,
    ...ASCII,
    comment: 'What dev_id is taken from: eui (the DevEUI, upper-case hex) or name (the device id or name).',
  })
  devIdSource!: DevIdSource;

  /** Hex SHA-256 of the API key. */
  @Column({
    type: 'varchar',
    name: 'key_hash',
    length: 64,
    select: false,
    ...ASCII,
    comment: 'Hex SHA-256 of the API key; the key itself is never stored.',
  })
  keyHash!: string;

  @Column({ type: 'datetime', name: 'created', comment: 'When the integration was created, UTC.' })
  created!: Date;

  /** To within a minute (see IntegrationKeyStateService). */
  @Column({
    type: 'datetime',
    name: 'last_used_at',
    nullable: true,
    comment: 'When the key was last accepted, UTC, to within a minute; NULL: never.',
  })
  lastUsedAt!: Date | null;

  @Column({
    type: 'datetime',
    name: 'revoked_at',
    nullable: true,
    comment: 'When the key was revoked (refused on every instance within 5 s), UTC; NULL while in force.',
  })
  revokedAt!: Date | null;
}
