import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { wholeSeconds } from '../common/time/whole-seconds.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { SensorTransition, SensorTransitionSink } from '../sensor/projection/sensor-transition.js';
import type { SensorEntity } from '../sensor/sensor.entity.js';
import { orderTimeSql } from '../sensor/projection/record-order.js';
import { overdueCutoff } from '../sensor/sensor-state.js';
import { EntityInsert } from '../database/entity-insert.js';
import { selectEntities, toColumnValue } from '../database/plain-sql.js';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';
import { sensorKey } from '../sensor/sensor-key.js';
import { toSensorView } from '../sensor/sensor.view.js';
import { type AlertEvent, type NotificationEvent, type Recipient } from './alert-events.js';
import { AlertNotificationEntity } from './alert-notification.entity.js';
import { AlertEntity } from './alert.entity.js';
import { firedBatteryLows } from './battery-crossings.js';
import { type NotificationQueue, NotificationSignal } from './notification-signal.js';
import { notificationText, type TextFacts } from './notification-text.js';
import { hearsBatteryLow, type KnownAlertFacts, type SensorAlertFacts, sensorAlertFacts } from './sensor-alert-facts.js';
import { reportedLate, setReportedLate } from './sprung-clock.js';
import { type EpisodeOf, keepEpisodes } from './sprung-episodes.js';

/** What a new notification says; the rest of its row is the outbox's. */
export interface NewNotification {
  alert: Pick<AlertEntity, 'id' | 'uid'>;
  event: NotificationEvent;
  recipient?: Recipient;
  sensor: SensorEntity | null;
  devId: string;
  at: Date;
  facts?: Partial<TextFacts>;
  recordNid?: number | null;
  episodeId?: number | null;
  dedupeKey?: string | null;
  /**
   * The sensor's `sprung_at` as its record left it, where the transaction changed it: a batch can spring
   * and set a trap more than once. Undefined: the open episode as the transaction reads it.
   */
  sprungAt?: Date | null;
}

/** Whether the alert is about the sensor: its user's, and its device or every device. */
function hearsSensor(alert: AlertEntity, sensor: Pick<SensorEntity, 'uid' | 'devId'>): boolean {
  return alert.uid === sensor.uid && (alert.devId === null || alert.devId === sensor.devId);
}

/**
 * The users' alerts, oldest first, read in the transaction as plain SQL: most records' users have none,
 * and for them the repository's query building cost several times the statement; for the others one
 * statement answers both (docs/benchmark.md#the-single-route).
 */
function alertsOf(manager: EntityManager, uids: number[]): Promise<AlertEntity[]> {
  return selectEntities(manager, AlertEntity, `WHERE uid IN (${uids.map(() => '?').join(', ')}) ORDER BY id`, uids);
}

/** The transitions each alert event follows from. */
const EVENT_OF = { sprung: 'sprung', reset: 'reset', silent: 'silent', back: 'back', tilted: 'tilted' } as const;

/**
 * The transactional outbox of the alerts (docs/alerts.md#delivery): turns the transitions of a batch
 * of records into notification rows in the batch's own transaction, so that a 201 means they will be
 * sent and a record rolled back sends nothing; keeps the sprung episodes likewise. Only rows are
 * written here: no receiver is ever waited for on the record's path.
 */
@Injectable()
export class AlertOutbox implements SensorTransitionSink {
  /** The queues each transition's notifications were written to, for its commit to hand on (none: nothing to send). */
  private readonly written = new WeakMap<SensorTransition, NotificationQueue[]>();
  /** The notifications' INSERT, made at the first (the entity's metadata is the data source's). */
  private insert?: EntityInsert<AlertNotificationEntity, 'id'>;

  constructor(
    private readonly signal: NotificationSignal,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Answers whether it wrote notifications: only then do this instance's dispatchers need waking at the commit. */
  async record(manager: EntityManager, transitions: SensorTransition[]): Promise<boolean> {
    const uids = [...new Set(transitions.map((transition) => transition.sensor.uid))];
    const alerts = await alertsOf(manager, uids);
    const episodes = await keepEpisodes(manager, transitions, ({ sensor }) => alerts.some((alert) => hearsSensor(alert, sensor)));
    if (alerts.length === 0) return false;
    // When these records arrived, as each record's `created` says it (whole seconds).
    const reportedAt = wholeSeconds(new Date(this.clock.now())).getTime();
    const batteryLows = await this.batteryLows(manager, alerts, transitions);
    const sprungAtThen = sprungAtAsOfEach(transitions, episodes);
    const setAgain = setAgainAt(transitions);
    const notifications: NewNotification[] = [];
    for (const transition of transitions) {
      const { sensor } = transition;
      for (const alert of alerts) {
        if (!hearsSensor(alert, sensor)) continue;
        const event = await this.eventFor(manager, alert, transition, batteryLows);
        if (!event || !alert.events.includes(event)) continue;
        // The episode's start: a repeated Sprung does not restart it.
        const sprungAt = episodes.get(transition)?.sprungAt ?? transition.sprungAt;
        this.written.set(transition, [
          ...(this.written.get(transition) ?? []),
          { alertId: alert.id, recipient: 'primary', uid: sensor.uid, devId: sensor.devId },
        ]);
        notifications.push({
          alert,
          event,
          sensor,
          devId: sensor.devId,
          at: transition.at,
          recordNid: transition.nid,
          episodeId: episodes.get(transition)?.id ?? null,
          sprungAt: sprungAtThen.get(transition),
          facts: {
            sprungAt,
            reportedAt:
              event === 'back' ||
              (event === 'sprung' && reportedLate(alert, transition.at, reportedAt)) ||
              (event === 'reset' && !!sprungAt && setReportedLate(alert, sprungAt, transition.at, reportedAt))
                ? new Date(reportedAt)
                : undefined,
            setAt: event === 'sprung' ? setAgain.get(transition) : undefined,
            lastHeardAt: event === 'silent' ? sensor.lastReceived : undefined,
            heartbeatSeconds: event === 'silent' ? sensor.heartbeatPeriod : undefined,
            value: transition.value,
            threshold: Number(event === 'battery_low' ? alert.batteryBelow : alert.baitBelow),
            tiltSensor: sensor.lastTiltSensor,
          },
        });
      }
    }
    // The open episode each sprung or reset left its sensor, as keepEpisodes just wrote it.
    const sprungAt = new Map<number, Map<string, Date | null>>();
    for (const { kind, sensor, at } of transitions) {
      if (kind !== 'sprung' && kind !== 'reset') continue;
      if (!sprungAt.has(sensor.uid)) sprungAt.set(sensor.uid, new Map());
      sprungAt.get(sensor.uid)!.set(sensor.devId, kind === 'sprung' ? at : null);
    }
    await this.add(manager, notifications, (uid) => ({ alerts, sprungAt: sprungAt.get(uid) ?? new Map() }));
    return notifications.length > 0;
  }

  /** Wakes the dispatchers after a commit that wrote notifications, handing them their queues where `transitions` says them. */
  committed(transitions: SensorTransition[] = []): void {
    const queues = transitions.flatMap((transition) => this.written.get(transition) ?? []);
    this.signal.wake(queues.length > 0 ? queues : undefined);
  }

  /** Writes notifications as pending, due now; `known`: the alert facts of a user this transaction read or wrote already. */
  async add(manager: EntityManager, notifications: NewNotification[], known?: (uid: number) => KnownAlertFacts): Promise<void> {
    if (notifications.length === 0) return;
    const now = new Date(this.clock.now());
    const cutoff = overdueCutoff(now.getTime(), this.config.sensors.heartbeatGraceSeconds);
    const zone = this.config.siteTimezone;
    // The sensor as the sensor routes answer it now, its alert facts read in this transaction.
    const devIdsOf = new Map<number, Set<string>>();
    for (const { sensor, alert, devId } of notifications)
      if (sensor) devIdsOf.set(alert.uid, (devIdsOf.get(alert.uid) ?? new Set()).add(devId));
    const factsOf = new Map<number, (devId: string) => SensorAlertFacts>();
    for (const [uid, devIds] of devIdsOf) factsOf.set(uid, await sensorAlertFacts(manager, uid, [...devIds], known?.(uid)));
    const factsThen = ({ alert, devId, sprungAt }: NewNotification): SensorAlertFacts => {
      const facts = factsOf.get(alert.uid)!(devId);
      return sprungAt === undefined ? facts : { ...facts, sprungAt };
    };
    this.insert ??= new EntityInsert(manager.connection, AlertNotificationEntity);
    await this.insert.run(
      manager,
      notifications.map((notification) => ({
        alertId: notification.alert.id,
        uid: notification.alert.uid,
        devId: notification.devId,
        event: notification.event,
        recipient: notification.recipient ?? 'primary',
        occurredAt: notification.at,
        text: notificationText(notification.event, {
          devId: notification.devId,
          at: notification.at,
          siteTimezone: zone,
          now: now.getTime(),
          alertId: notification.alert.id,
          ...notification.facts,
        }),
        sensor: JSON.stringify(notification.sensor && toSensorView(notification.sensor, factsThen(notification), cutoff, zone)),
        recordNid: notification.recordNid ?? null,
        episodeId: notification.episodeId ?? null,
        dedupeKey: notification.dedupeKey ?? null,
        status: 'pending' as const,
        attempts: 0,
        nextAttemptAt: now,
        claimedBy: null,
        claimedUntil: null,
        created: now,
        deliveredAt: null,
        lastError: null,
      })),
    );
  }

  /**
   * The battery transitions, for each alert hearing battery_low of their sensor, that fire it: all of the
   * transaction's at once (battery-crossings.ts), in the order the transitions come, each sensor's in
   * record order.
   */
  private async batteryLows(manager: EntityManager, alerts: AlertEntity[], transitions: SensorTransition[]) {
    const checks: Array<{ alert: AlertEntity; transition: SensorTransition }> = [];
    for (const transition of transitions) {
      if (transition.kind !== 'battery') continue;
      for (const alert of alerts) if (hearsBatteryLow(alert) && hearsSensor(alert, transition.sensor)) checks.push({ alert, transition });
    }
    const fired = new Map<SensorTransition, Set<AlertEntity>>();
    for (const { alert, transition } of await firedBatteryLows(manager, checks))
      fired.set(transition, (fired.get(transition) ?? new Set()).add(alert));
    return (alert: AlertEntity, transition: SensorTransition) => fired.get(transition)?.has(alert) ?? false;
  }

  /** The event a transition is for this alert; battery_low fires once per crossing and is armed again above threshold + 0.1 V. */
  private async eventFor(
    manager: EntityManager,
    alert: AlertEntity,
    transition: SensorTransition,
    batteryLow: (alert: AlertEntity, transition: SensorTransition) => boolean,
  ): Promise<AlertEvent | null> {
    switch (transition.kind) {
      case 'bait':
        return alert.baitBelow !== null ? this.baitCrossing(manager, alert, transition) : null;
      case 'battery':
        return batteryLow(alert, transition) ? 'battery_low' : null;
      default:
        return EVENT_OF[transition.kind];
    }
  }

  /**
   * bait_low once per crossing below the alert's level: the sensor's Baitlevel report before this one
   * in "last" order (order time, then nid: record-order.ts, as `transition.at` is) was at or above the
   * level, or there was none, or it was stored before the alert existed (a new alert is armed). A level
   * at or above it arms the alert again (a refilled station). Read from the records themselves, the
   * sensor's by its (dev_id, field_date) index; an order time is no column, so each of them is looked
   * at: a bait station reports a few levels a day and little else.
   */
  private async baitCrossing(manager: EntityManager, alert: AlertEntity, transition: SensorTransition): Promise<AlertEvent | null> {
    const level = Number(alert.baitBelow);
    if (transition.value! >= level) return null;
    const at = toColumnValue(manager, SensorRecordEntity, 'fieldDate', transition.at);
    const order = orderTimeSql('record', manager.connection.options.type === 'mysql');
    const previous = await manager
      .getRepository(SensorRecordEntity)
      .createQueryBuilder('record')
      .select(['record.nid', 'record.fieldData', 'record.created'])
      .where('record.devId = :devId AND record.uid = :uid AND record.fieldEvent = :event', {
        devId: transition.sensor.devId,
        uid: transition.sensor.uid,
        event: 'Baitlevel',
      })
      .andWhere(`(${order} < :at OR (${order} = :at AND record.nid < :nid))`, { at, nid: transition.nid })
      .orderBy(order, 'DESC')
      .addOrderBy('record.nid', 'DESC')
      .limit(1)
      .getOne();
    const armed =
      !previous ||
      previous.fieldData === null ||
      Number(previous.fieldData) >= level ||
      previous.created.getTime() < alert.created.getTime();
    return armed ? 'bait_low' : null;
  }
}

/** For each sprung transition that a later one of the same transaction undid, when its trap was set again. */
function setAgainAt(transitions: SensorTransition[]): Map<SensorTransition, Date> {
  const setAt = new Map<SensorTransition, Date>();
  const sprung = new Map<string, SensorTransition>();
  for (const transition of transitions) {
    const key = sensorKey(transition.sensor);
    if (transition.kind === 'sprung') sprung.set(key, transition);
    const undone = transition.kind === 'reset' ? sprung.get(key) : undefined;
    if (undone) setAt.set(undone, transition.at);
  }
  return setAt;
}

/**
 * For each transition of a sensor whose trap the transaction sprang or set, the `sprung_at` the sensor
 * routes answered right after its record (docs/alerts.md#webhooks: the sensor as it was when the event
 * was raised): the start of the episode open then, or null. Before the sensor's first such transition, the
 * episode the table held open (the one a leading `Set` closed, as keepEpisodes read it); after a `Sprung`,
 * its episode; after a `Set`, none. Sensors the transaction did not spring or set are not in the map: for
 * them the table's open episode is the one.
 */
function sprungAtAsOfEach(transitions: SensorTransition[], episodes: Map<SensorTransition, EpisodeOf>): Map<SensorTransition, Date | null> {
  const open = new Map<string, Date | null>();
  for (const transition of transitions) {
    const key = sensorKey(transition.sensor);
    if (open.has(key)) continue;
    if (transition.kind === 'reset') open.set(key, episodes.get(transition)?.sprungAt ?? null);
    // A sensor sprung by the transaction was not sprung before it: no episode was open.
    else if (transition.kind === 'sprung') open.set(key, null);
  }
  const asOf = new Map<SensorTransition, Date | null>();
  for (const transition of transitions) {
    const key = sensorKey(transition.sensor);
    if (!open.has(key)) continue;
    if (transition.kind === 'sprung') open.set(key, episodes.get(transition)?.sprungAt ?? transition.at);
    else if (transition.kind === 'reset') open.set(key, null);
    asOf.set(transition, transition.sensor.sprung ? open.get(key)! : null);
  }
  return asOf;
}
