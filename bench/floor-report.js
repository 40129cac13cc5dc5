// @ts-check
// What the floor server extracts from a submission and how it maps onto the `sensor_report` row.
// Deliberately the bare minimum of the service's essential work: unwrap the members, parse the
// time, normalise the decimals and the MAC address, build the title; no framework, no validation
// library. Bench bodies are always valid, so a missing required member is only a 406 here.

/** `[{"value": x}]`, `{"value": x}` or bare `x` (docs/interface.md#member-shapes). */
export function unwrap(member, key = 'value') {
  if (Array.isArray(member)) member = member[0];
  if (member !== null && typeof member === 'object') return member[key];
  return member;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Offset of `timeZone` from UTC (ms) at the instant `ms`. */
function zoneOffset(ms, formatter) {
  const parts = {};
  for (const { type, value } of formatter.formatToParts(new Date(ms))) parts[type] = value;
  const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour % 24, +parts.minute, +parts.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

export function timeParser(timeZone) {
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (text) => {
    const m = typeof text === 'string' ? TIME.exec(text) : null;
    if (!m) return null;
    const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
    if (m[7]) return new Date(wall);
    if (m[8]) {
      const offset = (Number(m[9]) * 60 + Number(m[10] ?? 0)) * 60000;
      return new Date(m[8] === '+' ? wall - offset : wall + offset);
    }
    const guess = wall - zoneOffset(wall, formatter);
    return new Date(wall - zoneOffset(guess, formatter));
  };
}

/** DECIMAL(…, 3) text, rounded half away from zero. */
function decimal(value) {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  return ((Math.sign(n) * Math.round(Math.abs(n) * 1000)) / 1000).toFixed(3);
}

function integer(value) {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
}

function text(value) {
  if (value === undefined || value === null) return null;
  return String(value);
}

/**
 * The submission as column values, or a string naming what is missing. `now` is the creation
 * instant; `user` is `{uid, uuid}` of the token's subject.
 */
export function extractReport(body, parseTime) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body: This value should be an object.';
  const payload = body.payload_fields ?? {};
  const metadata = body.metadata ?? {};
  const devId = body.dev_id;
  const timeText = unwrap(metadata.time);
  const event = unwrap(payload.field_event);
  if (typeof devId !== 'string' || devId.length === 0) return 'dev_id: This value should not be null.';
  if (typeof event !== 'string') return 'payload_fields.field_event: This value should not be null.';
  if (unwrap(payload.type, 'target_id') !== 'sensor_report') return 'payload_fields.type: This value should not be null.';
  const date = parseTime(timeText);
  if (!date) return 'metadata.time: This value is not a valid datetime.';
  const gateway = Array.isArray(metadata.gateways) ? (metadata.gateways[0] ?? {}) : {};
  const tilt = unwrap(payload.field_tilt_sensor);
  const mac = unwrap(payload.field_gateway);
  const timeout = integer(unwrap(payload.field_timeout));
  return {
    title: `Sensor report: ${devId} (${timeText})`,
    field_sensor_id: devId,
    field_date: date,
    field_event: event,
    field_status: text(unwrap(payload.field_status)),
    field_network: text(unwrap(payload.field_network)),
    field_gateway: typeof mac === 'string' ? mac.toUpperCase() : null,
    field_sequence: integer(unwrap(payload.field_sequence)),
    field_counter: integer(unwrap(payload.field_counter)),
    field_battery_voltage: decimal(unwrap(payload.field_battery_voltage)),
    field_tilt_sensor: tilt === true ? 'True' : tilt === false ? 'False' : text(tilt),
    field_timeout: timeout ?? 86400,
    field_data: decimal(unwrap(payload.field_data)),
    field_rssi: integer(unwrap(gateway.rssi ?? gateway.field_rssi)),
    field_snr: decimal(unwrap(gateway.snr ?? gateway.field_snr)),
  };
}
