// @ts-check
// Uplink messages of The Things Stack for the TTS webhook load (docs/interface.md#network-server-integrations):
// the JSON format its webhooks post, two or three gateways, varied readings from a payload formatter.
// As bodies.js does, each is a pre-rendered template with two holes, the device id prefix and the
// request's serial number, here the frame counter (`f_cnt`), which the record keeps as
// `field_sequence`: the integration is created with `--dev-id name`, so the rows of a run are found
// by device id prefix and matched to the answers by serial, as the sensor-record load's are.

const EVENTS = ['Sprung', 'Set', 'Vibration', 'Heartbeat', 'Baitlevel'];
const STATUSES = ['Sprung', 'Set'];
const DEVICE_COUNT = 200;
const TEMPLATE_COUNT = 256;
const DEV_HOLE = 'devhole';
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

const hex = (value, width) => value.toString(16).toUpperCase().padStart(width, '0');
const ulid = (rnd) => Array.from({ length: 26 }, () => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(rnd() * 32)]).join('');

function instant(rnd) {
  return new Date(Date.UTC(2026, 0, 1) + Math.floor(rnd() * 60 * 86400 * 1000)).toISOString().replace('Z', `${Math.floor(rnd() * 1000)}Z`);
}

function gateway(rnd, index, time) {
  const withMac = rnd() < 0.7;
  const eui = withMac ? `B827EBFFFE${hex(Math.floor(rnd() * 0xffffff), 6)}` : `0016C001F1${hex(Math.floor(rnd() * 0xffffff), 6)}`;
  const rssi = -60 - Math.floor(rnd() * 60);
  return {
    gateway_ids: { gateway_id: `gw-${index}-${eui.slice(-6).toLowerCase()}`, eui },
    ...(rnd() < 0.3 ? { gps_time: time } : {}),
    timestamp: Math.floor(rnd() * 4294967295),
    rssi,
    channel_rssi: rssi,
    snr: Math.round((rnd() * 20 - 10) * 4) / 4,
    channel_index: Math.floor(rnd() * 8),
    received_at: time,
  };
}

function uplinkObject(rnd, device) {
  const event = EVENTS[Math.floor(rnd() * EVENTS.length)];
  const bait = event === 'Baitlevel';
  const decoded = {
    event,
    status: bait ? 'Baitlevel' : STATUSES[Math.floor(rnd() * STATUSES.length)],
    counter: Math.floor(rnd() * 500),
    battery_voltage: Math.round((3 + rnd()) * 100) / 100,
    tilt_sensor: rnd() < 0.5,
    ...(rnd() < 0.5 ? { timeout: 3600 * (1 + Math.floor(rnd() * 24)) } : {}),
    ...(bait ? { data: Math.round(rnd() * 1000) / 10 } : {}),
  };
  const time = instant(rnd);
  return {
    end_device_ids: {
      device_id: `${DEV_HOLE}-trap-${device.toString(16).padStart(4, '0')}`,
      application_ids: { application_id: 'predator-traps' },
      dev_eui: `70B3D57ED006${hex(device, 4)}`,
      join_eui: '70B3D57ED0000000',
      dev_addr: `260B${hex(device, 4)}`,
    },
    correlation_ids: [`gs:uplink:${ulid(rnd)}`],
    received_at: time,
    uplink_message: {
      session_key_id: Buffer.from(`session-${device}`).toString('base64'),
      f_port: 2,
      f_cnt: SEQ_HOLE,
      frm_payload: 'AQEADAFpDhA=',
      decoded_payload: decoded,
      rx_metadata: Array.from({ length: 2 + Math.floor(rnd() * 2) }, (_, index) => gateway(rnd, index, time)),
      settings: {
        data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 + Math.floor(rnd() * 5), coding_rate: '4/5' } },
        frequency: '916800000',
      },
      received_at: time,
      consumed_airtime: '0.061696s',
    },
  };
}

/** The uplink templates: `[before device prefix, before serial, after serial]` each. */
export function uplinkTemplates(count = TEMPLATE_COUNT, seed = 20260304) {
  const rnd = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const json = JSON.stringify(uplinkObject(rnd, (i * 7919) % DEVICE_COUNT));
    const [head, rest, ...more] = json.split(DEV_HOLE);
    const [middle, tail, ...again] = (rest ?? '').split(String(SEQ_HOLE));
    if (rest === undefined || more.length > 0 || again.length > 0 || tail === undefined) throw new Error(`bad uplink template ${i}`);
    return [head, middle, tail];
  });
}
