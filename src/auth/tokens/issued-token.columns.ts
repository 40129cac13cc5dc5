import { Column, PrimaryGeneratedColumn } from 'typeorm';

/** What every issued token records: which grant it descends from, for whom, until when, and whether it was revoked. */
export abstract class IssuedTokenColumns {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  /** Every token descended from one password grant shares the grant's family id. */
  @Column({ type: 'varchar', name: 'family_id', length: 36 })
  familyId!: string;

  @Column({ type: 'varchar', name: 'client_id', length: 64 })
  clientId!: string;

  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'datetime', name: 'expires_at' })
  expiresAt!: Date;

  @Column({ type: 'boolean', name: 'revoked' })
  revoked!: boolean;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;
}
