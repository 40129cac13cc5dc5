// @ts-check
// Valid submissions for the load (docs/interface.md#submitting-a-sensor-record): varied devices, events, shapes and time
// formats. Each body is a pre-rendered template with two holes, the dev_id prefix and the request's
// serial number (sent as `field_sequence`), so building a request costs two string joins rather than a
// JSON.stringify on the load generator's share of the CPU. The serial makes every request
// identifiable in the database afterwards (see accounting.js).

const EVENTS = ['Sprung', 'Set', 'Vibration', 'Heartbeat', 'Baitlevel'];
const STATUSES = ['Sprung', 'Set', 'Baitlevel'];
const TILT = ['True', 'False', 'Fail', 'NotInstalled'];
const NETWORKS = ['ttn', 'chirpstack-nz', 'helium', 'kiwi-lora'];
const DEVICE_COUNT = 200;
const TEMPLATE_COUNT = 256;
const DEV_HOLE = '@@DEV@@';
const SEQ_HOLE = 987654321;

/** Small deterministic generator so every run sends the same mix. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n, width = 2) => String(n).padStart(width, '0');

function deviceId(index) {
  return `a840410001${pad(index.toString(16), 6)}`;
}

function timeText(rnd) {
  const base = Date.UTC(2025, 0, 1) + Math.floor(rnd() * 300 * 86400) * 1000;
  const d = new Date(base);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const clock = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  switch (Math.floor(rnd() * 4)) {
    case 0:
      return `${date}T${clock}Z`;
    case 1:
      // Network servers send nanoseconds; the service cuts them to whole seconds.
      return `${date}T${clock}.${pad(Math.floor(rnd() * 1e9), 9)}Z`;
    case 2:
      return `${date}T${clock}+12:00`;
    default:
      return `${date}T${clock}+1300`;
  }
}

function reportObject(rnd, device) {
  // Mostly the list-of-one shape; some bodies use the `{value}` or bare shapes (docs/interface.md#member-shapes).
  const shape = rnd();
  const wrap = (value) => (shape < 0.8 ? [{ value }] : shape < 0.9 ? { value } : value);
  const event = EVENTS[Math.floor(rnd() * EVENTS.length)];
  const bait = event === 'Baitlevel';
  const payload = {
    type: [{ target_id: 'sensor_report' }],
    field_event: wrap(event),
    field_status: wrap(bait ? 'Baitlevel' : STATUSES[Math.floor(rnd() * 2)]),
    field_network: wrap(NETWORKS[Math.floor(rnd() * NETWORKS.length)]),
    field_gateway: wrap(Array.from({ length: 6 }, () => pad(Math.floor(rnd() * 256).toString(16)).toUpperCase()).join(':')),
    field_sequence: wrap(SEQ_HOLE),
    field_counter: wrap(Math.floor(rnd() * 500)),
    field_battery_voltage: wrap(Number((3 + rnd()).toFixed(Math.floor(rnd() * 4)))),
    field_tilt_sensor: wrap(TILT[Math.floor(rnd() * TILT.length)]),
  };
  if (rnd() < 0.5) payload.field_timeout = wrap(rnd() < 0.1 ? -1 : 3600 * (1 + Math.floor(rnd() * 24)));
  if (bait) payload.field_data = wrap(Math.round(rnd() * 1000) / 10);
  const metadata = { time: timeText(rnd) };
  if (rnd() < 0.8) {
    metadata.gateways = [{ rssi: -40 - Math.floor(rnd() * 80), snr: Math.round((rnd() * 20 - 10) * 100) / 100 }];
  }
  return { dev_id: `${DEV_HOLE}-${deviceId(device)}`, metadata, payload_fields: payload };
}

/**
 * A report as a template: `[before dev prefix, before serial, after serial]`.
 * @returns {string[]}
 */
function template(report) {
  const json = JSON.stringify(report);
  const [head, rest, ...more] = json.split(DEV_HOLE);
  const [middle, tail, ...again] = (rest ?? '').split(String(SEQ_HOLE));
  if (head === undefined || middle === undefined || tail === undefined || more.length > 0 || again.length > 0)
    throw new Error(`bad body template ${json}`);
  return [head, middle, tail];
}

/** The body templates: `[before dev prefix, before serial, after serial]` each. */
export function bodyTemplates(count = TEMPLATE_COUNT, seed = 20251121) {
  const rnd = random(seed);
  return Array.from({ length: count }, (_, i) => template(reportObject(rnd, (i * 7919) % DEVICE_COUNT)));
}

/**
 * Reports that move traps, for the alerts' load: template `i` is device `i % devices`, `Sprung` for
 * the first `devices` templates and `Set` for the rest, all at one device time `at`. A report of the
 * same device time as its sensor's last is still after it (then by nid, docs/interface.md#sensor-transitions),
 * so every report is its sensor's latest and raises `sprung` or `reset` whenever it changes the trap;
 * the battery is full, the tilt sensor quiet and the heartbeat hourly, so that it raises nothing else.
 */
export function trapTemplates(at, devices = DEVICE_COUNT) {
  const time = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return Array.from({ length: 2 * devices }, (_, i) => {
    const status = i < devices ? 'Sprung' : 'Set';
    return template({
      dev_id: `${DEV_HOLE}-${deviceId(i % devices)}`,
      metadata: { time, gateways: [{ rssi: -71, snr: 7.25 }] },
      payload_fields: {
        type: [{ target_id: 'sensor_report' }],
        field_event: [{ value: status }],
        field_status: [{ value: status }],
        field_network: [{ value: 'ttn' }],
        field_gateway: [{ value: 'B8:27:EB:4C:1F:02' }],
        field_sequence: [{ value: SEQ_HOLE }],
        field_counter: [{ value: 1 }],
        field_battery_voltage: [{ value: 3.6 }],
        field_tilt_sensor: [{ value: 'False' }],
        field_timeout: [{ value: 3600 }],
      },
    });
  });
}

/** Body for request `serial`, with a dev_id starting `<prefix>-` (so rows can be counted per run). */
export function renderBody(template, prefix, serial) {
  return template[0] + prefix + template[1] + serial + template[2];
}
