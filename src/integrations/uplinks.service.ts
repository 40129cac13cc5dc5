import { Injectable, Logger } from '@nestjs/common';
import { MetricsService, type IntegrationLabels } from '../metrics/metrics.service.js';
import { CreateSensorRecordDto } from '../sensor-record/dto/create-sensor-record.dto.js';
import { DuplicateUplinkError } from '../sensor-record/duplicate-uplink.error.js';
import { SensorRecordService } from '../sensor-record/sensor-record.service.js';
import { submissionValidationPipe } from '../sensor-record/validation/submission-validation.pipe.js';
import { isPlainObject } from '../sensor-record/validation/unwrap-member.js';
import { ValidationFailedException } from '../sensor-record/validation/validation-failure.js';
import type { IntegrationCaller } from './key/integration-caller.js';
import { type ReadingsHints, REFUSAL_MESSAGES, type RefusalReason, type UplinkAnswer } from './uplink/uplink-answer.js';
import { uplinkKey } from './uplink/uplink-key.js';
import type { UplinkReading } from './uplink/uplink-reading.js';
import { uplinkSubmission, uplinkViolation } from './uplink/uplink-submission.js';

/**
 * Turns an uplink into a sensor record, once: through the sensor-record route's own validation and
 * storage, keyed by the uplink so that a repeated delivery answers with the record stored first
 * (docs/interface.md#network-server-integrations).
 */
@Injectable()
export class UplinksService {
  private readonly logger = new Logger('Integrations');

  constructor(
    private readonly records: SensorRecordService,
    private readonly metrics: MetricsService,
  ) {}

  /** `requestBody` is stored with the record: the uplink as received. */
  async receive(reading: UplinkReading, caller: IntegrationCaller, requestBody: string): Promise<UplinkAnswer> {
    const labels: IntegrationLabels = { integration: String(caller.integrationId), network: caller.network };
    this.metrics.uplinkReceived(labels);
    if (reading.simulated) return this.refuse(labels, reading, caller, 'simulated', REFUSAL_MESSAGES.simulated);
    if (!isPlainObject(reading.decoded.value)) {
      return this.refuse(labels, reading, caller, 'no_decoded_payload', REFUSAL_MESSAGES.noDecodedPayload(reading.network));
    }

    const { submission, sources, ignored } = uplinkSubmission(reading, caller);
    let validated: CreateSensorRecordDto;
    try {
      validated = await submissionValidationPipe.transform(submission);
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      const violations = error.violations.map((line) => uplinkViolation(line, sources));
      const hints: ReadingsHints = {
        network: reading.network,
        ignored,
        decodedPath: violations.some((line) => line.startsWith(`${reading.decoded.path}.`)) ? reading.decoded.path : undefined,
        deviceNamePath: caller.devIdSource === 'eui' && reading.devEui.value == null ? reading.deviceName.path : undefined,
      };
      return this.refuse(labels, reading, caller, 'invalid_readings', REFUSAL_MESSAGES.invalidReadings(violations, hints));
    }

    const key = uplinkKey(caller.user.uid, reading.network, reading.uplinkId);
    try {
      const record = await this.records.create(validated, caller.user, requestBody, { key, integrationId: caller.integrationId });
      this.metrics.uplinkAnswered(labels, 'stored');
      return { outcome: 'stored', record };
    } catch (error) {
      if (!(error instanceof DuplicateUplinkError)) throw error;
      // Committed by the request that won: the unique index refuses a row only once the other is stored.
      const first = await this.records.findByUplinkKey(key);
      if (!first) throw error;
      this.metrics.uplinkAnswered(labels, 'duplicate');
      this.logger.log(`Uplink ${key} delivered again; answered with record ${first.nid}`);
      return { outcome: 'duplicate', record: first };
    }
  }

  /** Acknowledged without a record: logged and counted, so that a misconfigured formatter shows without the webhook failing. */
  private refuse(
    labels: IntegrationLabels,
    reading: UplinkReading,
    caller: IntegrationCaller,
    reason: RefusalReason,
    message: string,
  ): UplinkAnswer {
    this.metrics.uplinkAnswered(labels, 'refused', reason);
    const device = caller.devIdSource === 'eui' ? reading.devEui.value : reading.deviceName.value;
    // As JSON and cut short: the device's name is whatever the uplink says.
    this.logger.warn(
      `Uplink of device ${(JSON.stringify(device) ?? 'unknown').slice(0, 80)} through integration ${caller.integrationId} (${caller.network}) not stored, ${reason}: ${message.trim().replace(/\n/g, ' ')}`,
    );
    return { outcome: 'refused', reason, message };
  }
}
