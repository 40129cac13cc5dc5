#!/usr/bin/env bash
# npm run test:galera: starts the three-node test cluster (scripts/galera-cluster.sh; fails when it
# cannot) and runs the suites named `*.galera.e2e-spec.ts` against it, one after another, with
# GALERA_URLS naming a database on each node. The cluster is left running for the next run;
# `npm run galera:stop` stops it. Arguments are passed on to jest.
set -euo pipefail
cd "$(dirname "$0")/.."

DATABASE=${GALERA_TEST_DATABASE:-sensor_records_test_galera}
# A killed node holds the others' writes back until they evict it: about 3 s with these settings
# (Galera's defaults take about 6 s). Applied when the cluster starts; an empty value keeps the defaults.
export GALERA_PROVIDER_OPTIONS=${GALERA_PROVIDER_OPTIONS-evs.keepalive_period=PT0.5S;evs.suspect_timeout=PT2S;evs.inactive_timeout=PT4S}
# The suites prove what the cluster does with the service's writes (conflicts, causal reads, a dead node),
# not how fast three nodes on two shared cores take them: a request may wait 10 s for the database, the
# service's 3 s default is a production figure (npm run bench:galera measures the speed). At 3 s, on a
# loaded machine, reports answered 503 "No time left to wait…" failed the suites.
export DB_REQUEST_TIMEOUT_MS=${DB_REQUEST_TIMEOUT_MS:-10000}

bash scripts/galera-cluster.sh start
urls=$(bash scripts/galera-cluster.sh env "$DATABASE")
export GALERA_URLS=${urls#GALERA_URLS=}
# The test run's setup creates the database (on node 1; the cluster replicates it) and refuses a name
# without "test".
export DATABASE_URL=${GALERA_URLS%%,*}
node scripts/require-test-database.js
# Bounded, so that a run that hangs fails instead (the suites take one to two minutes).
exec timeout --kill-after=10 "${GALERA_TEST_TIMEOUT:-600}" node --experimental-vm-modules --no-warnings=ExperimentalWarning \
  node_modules/jest/bin/jest.js --runInBand --testPathPattern '\.galera\.e2e-spec\.ts$' "$@"
