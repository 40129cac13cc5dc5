import { byId, meta } from './dom';
import { FleetView } from './fleet';
import { siteTimeFormatter, zoneName } from './format';
import { SensorView } from './sensor-view';
import { Session, SignInError } from './session';

const timeZone = meta('site-time-zone');
const siteTime = siteTimeFormatter(timeZone);

const session = new Session(meta('fleet-page-client-id'), meta('fleet-page-token-path'), (reason) => showSignIn(reason));
const fleet = new FleetView({
  session,
  siteTime,
  zone: (instant) => zoneName(timeZone, instant),
  openSensor: (devId) => (location.hash = `#/sensors/${encodeURIComponent(devId)}`),
});
const sensorView = new SensorView({ session, siteTime, timeZone });

const views = { signIn: byId('sign-in-view'), fleet: byId('fleet-view'), sensor: byId('sensor-view') };
type ViewName = keyof typeof views;

function show(name: ViewName, focus: string): void {
  for (const [key, view] of Object.entries(views)) view.hidden = key !== name;
  byId('account').hidden = name === 'signIn';
  byId(focus).focus();
}

function showSignIn(reason = ''): void {
  session.signOut();
  fleet.clear();
  sensorView.close();
  byId('sign-in-error').textContent = reason;
  byId<HTMLInputElement>('password').value = '';
  show('signIn', 'username');
}

/** `#/sensors/<dev_id>` shows that sensor; anything else the fleet. */
function route(): void {
  if (!session.signedIn) return;
  const match = /^#\/sensors\/(.+)$/.exec(location.hash);
  let devId: string | undefined;
  try {
    devId = match ? decodeURIComponent(match[1]!) : undefined;
  } catch {
    devId = undefined;
  }
  if (devId !== undefined) {
    show('sensor', 'sensor-heading');
    void sensorView.show(devId);
  } else {
    sensorView.close();
    show('fleet', 'fleet-heading');
  }
}

byId('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void signIn();
});

async function signIn(): Promise<void> {
  const username = byId<HTMLInputElement>('username');
  const password = byId<HTMLInputElement>('password');
  const button = byId<HTMLButtonElement>('sign-in');
  const error = byId('sign-in-error');
  if (username.value.trim() === '' || password.value === '') {
    error.textContent = 'Enter a user name and a password.';
    return;
  }
  button.disabled = true;
  error.textContent = '';
  try {
    await session.signIn(username.value, password.value);
  } catch (failure) {
    error.textContent = failure instanceof SignInError ? failure.message : 'The service could not be reached; try again shortly.';
    return;
  } finally {
    button.disabled = false;
    password.value = '';
  }
  byId('who').textContent = session.user;
  route();
  await fleet.start();
}

byId('sign-out').addEventListener('click', () => {
  history.replaceState(null, '', location.pathname);
  showSignIn();
});

window.addEventListener('hashchange', route);
show('signIn', 'username');
