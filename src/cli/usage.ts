/** Every command of the administration command line, as an unknown or missing one is answered. */
export const USAGE =
  'Usage: cli client:create --label L [--secret S | --public] | client:list | client:delete --client-id ID' +
  ' | user:create --username U --password P [--no-ingest] | user:list | user:block --username U' +
  ' | user:unblock --username U | user:password --username U --password P | user:delete --username U [--with-records]' +
  ' | integration:create --user U --network tts|chirpstack [--label L] [--dev-id eui|name] | integration:list | integration:revoke --id ID' +
  ' | keys:rotate | keys:list | keys:retire --kid K [--force]' +
  ' | records:purge --before DATE [--dry-run] | backup --to FILE' +
  ' | alert:create --user U --on EVENTS (--webhook URL [--format json|slack|text] [--secret S] | --email ADDRESS) [--sensor DEV_ID]' +
  ' [--battery-below VOLTS] [--bait-below N] [--remind-after 12h] [--escalate-after 20h (--escalate-webhook URL | --escalate-email ADDRESS)]' +
  ' | alert:list | alert:delete --id N | alert:test --id N';
