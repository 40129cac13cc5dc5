#!/usr/bin/env bash
# Checks that the test cluster started by scripts/galera-cluster.sh behaves as a Galera cluster does,
# and shows the rules the service has to live with there: writes replicate to every node; a read on
# one node sees a write committed on another when the session sets wsrep_sync_wait; auto-increment
# values are interleaved (each node its own offset, all stepping by the cluster size); two nodes that
# change one row in open transactions both succeed until COMMIT, where the later one fails with
# error 1213 (a deadlock, in fact a certification failure); a named lock (GET_LOCK) holds on one node
# only. Connects as the test suites do (root over TCP on 127.0.0.1), uses a database of its own and
# drops it again. Exits non-zero at the first check that fails.
set -euo pipefail

BASE_PORT=${GALERA_BASE_PORT:-4400}
DATABASE=galera_selftest
WORK=$(mktemp -d)
STEP=0
CHECK=0
declare -A SESSION_FD SESSION_PID SESSION_SEEN

port() { echo $((BASE_PORT + $1)); }

# One statement batch on node N, in a connection of its own.
query() {
  local node=$1
  shift
  timeout 30 mariadb --no-defaults --protocol=tcp --host=127.0.0.1 --port="$(port "$node")" --user=root \
    --connect-timeout=5 --batch --skip-column-names -e "$*"
}

ok() {
  CHECK=$((CHECK + 1))
  printf 'ok %d - %s\n' "$CHECK" "$1"
}
not_ok() {
  CHECK=$((CHECK + 1))
  printf 'not ok %d - %s\n' "$CHECK" "$1"
  exit 1
}
note() { printf '    %s\n' "$@"; }
expect_equal() { # description actual expected
  if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (got '$2', expected '$3')"; fi
}

# A session that stays open on node N between statements, for transactions and locks that must be
# held while another node acts. Statements go in through a fifo; a marker row after each batch says
# when its answer (rows, or an ERROR line: --force keeps the session going) is complete.
session_open() {
  local name=$1 node=$2 fd
  mkfifo "$WORK/$name.in"
  mariadb --no-defaults --protocol=tcp --host=127.0.0.1 --port="$(port "$node")" --user=root --connect-timeout=5 \
    --batch --skip-column-names --unbuffered --force "$DATABASE" <"$WORK/$name.in" >"$WORK/$name.out" 2>&1 &
  SESSION_PID[$name]=$!
  exec {fd}>"$WORK/$name.in"
  SESSION_FD[$name]=$fd
  SESSION_SEEN[$name]=0
}

# Runs a batch in session NAME and leaves its answer in ANSWER: the rows, or the ERROR line (in a
# variable, not on stdout, because a command substitution would lose the session's bookkeeping).
session() {
  local name=$1 sql=$2 marker line waited=0
  STEP=$((STEP + 1))
  marker="selftest-step-$STEP"
  printf '%s\nSELECT '"'"'%s'"'"';\n' "$sql" "$marker" >&"${SESSION_FD[$name]}"
  until line=$(grep -n -x -m 1 "$marker" "$WORK/$name.out" | cut -d: -f1) && [ -n "$line" ]; do
    waited=$((waited + 1))
    if [ "$waited" -gt 600 ]; then
      cat "$WORK/$name.out" >&2
      not_ok "session $name did not answer '$sql' within 30 s"
    fi
    sleep 0.05
  done
  ANSWER=""
  if [ "$line" -gt "$((SESSION_SEEN[$name] + 1))" ]; then
    # --force echoes a failed statement between dashed lines before its ERROR line.
    ANSWER=$(sed -n "$((SESSION_SEEN[$name] + 1)),$((line - 1))p" "$WORK/$name.out" |
      awk '/^-+$/ { echoed = !echoed; next } echoed || /^$/ { next } { print }')
  fi
  SESSION_SEEN[$name]=$line
}

cleanup() {
  local name fd
  for name in "${!SESSION_FD[@]}"; do
    fd=${SESSION_FD[$name]}
    exec {fd}>&-
    kill "${SESSION_PID[$name]}" 2>/dev/null || true
  done
  query 1 "DROP DATABASE IF EXISTS $DATABASE" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "# the cluster"
for node in 1 2 3; do
  state=$(query "$node" "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_cluster_size', 'wsrep_cluster_status', 'wsrep_local_state_comment', 'wsrep_ready')" 2>&1 |
    awk -F'\t' '{ value[$1] = $2 } END { printf "%s %s %s %s", value["wsrep_cluster_size"], value["wsrep_cluster_status"], value["wsrep_local_state_comment"], value["wsrep_ready"] }') ||
    not_ok "node$node answers root over TCP on 127.0.0.1:$(port "$node")"
  expect_equal "node$node (127.0.0.1:$(port "$node")) is one of 3, in the primary component, Synced and ready" "$state" "3 Primary Synced ON"
done
note "$(query 1 "SELECT CONCAT('MariaDB ', VERSION(), ', Galera ', VARIABLE_VALUE, ', binlog_format ', @@binlog_format,
  ', innodb_autoinc_lock_mode ', @@innodb_autoinc_lock_mode, ', wsrep_sst_method ', @@wsrep_sst_method,
  ', wsrep_sync_wait ', @@wsrep_sync_wait, ' (server default), wsrep_retry_autocommit ', @@wsrep_retry_autocommit)
  FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'WSREP_PROVIDER_VERSION'")"

echo "# replication: create through node 1, insert through node 2, read through node 3"
query 1 "DROP DATABASE IF EXISTS $DATABASE; CREATE DATABASE $DATABASE;
  CREATE TABLE $DATABASE.item (id BIGINT AUTO_INCREMENT PRIMARY KEY, node VARCHAR(8) NOT NULL, note VARCHAR(64) NOT NULL);
  CREATE TABLE $DATABASE.counter (id INT PRIMARY KEY, hits INT NOT NULL); INSERT INTO $DATABASE.counter VALUES (1, 0)"
ok "node1 created database $DATABASE and its tables"
id=$(query 2 "INSERT INTO $DATABASE.item (node, note) VALUES ('node2', 'written through node 2'); SELECT LAST_INSERT_ID()")
seen=$(query 3 "SET SESSION wsrep_sync_wait = 1; SELECT note FROM $DATABASE.item WHERE id = $id")
expect_equal "node3 reads the row node2 inserted (id $id), at once, with wsrep_sync_wait = 1" "$seen" "written through node 2"

echo "# auto-increment: every node steps by the cluster size from an offset of its own"
offsets=""
for node in 1 2 3; do
  read -r increment offset id < <(query "$node" "INSERT INTO $DATABASE.item (node, note) VALUES ('node$node', 'auto-increment');
    SELECT @@auto_increment_increment, @@auto_increment_offset, LAST_INSERT_ID()" | tr '\t' ' ')
  note "node$node: auto_increment_increment $increment, auto_increment_offset $offset, new id $id"
  expect_equal "node$node steps by 3" "$increment" 3
  expect_equal "node$node's new id ($id) is its offset ($offset) modulo 3" "$((id % 3))" "$((offset % 3))"
  offsets="$offsets $offset"
done
expect_equal "the three offsets differ" "$(tr ' ' '\n' <<<"$offsets" | sed '/^$/d' | sort -n | tr '\n' ' ')" "1 2 3 "

echo "# certification: one row changed on two nodes in open transactions"
session_open on_node1 1
session_open on_node2 2
failures_before=$(query 2 "SHOW GLOBAL STATUS LIKE 'wsrep_local_bf_aborts'" | cut -f2)
session on_node1 "BEGIN; UPDATE counter SET hits = hits + 1 WHERE id = 1;"
expect_equal "node1 updates the row inside its transaction" "$ANSWER" ""
session on_node2 "BEGIN; UPDATE counter SET hits = hits + 10 WHERE id = 1;"
expect_equal "node2 updates the same row inside its own transaction, unhindered" "$ANSWER" ""
session on_node1 "COMMIT;"
expect_equal "node1 commits first and succeeds" "$ANSWER" ""
session on_node2 "COMMIT;"
note "node2's COMMIT answered: $ANSWER"
case "$ANSWER" in
  "ERROR 1213 "*) ok "node2's COMMIT fails with error 1213 (ER_LOCK_DEADLOCK): the whole transaction must be retried" ;;
  *) not_ok "node2's COMMIT fails with error 1213 (got '$ANSWER')" ;;
esac
failures_after=$(query 2 "SHOW GLOBAL STATUS LIKE 'wsrep_local_bf_aborts'" | cut -f2)
note "node2 wsrep_local_bf_aborts: $failures_before -> $failures_after"
for node in 1 2 3; do
  hits=$(query "$node" "SET SESSION wsrep_sync_wait = 1; SELECT hits FROM $DATABASE.counter WHERE id = 1")
  expect_equal "node$node holds node1's change only" "$hits" 1
done

echo "# named locks are per node"
session on_node1 "SELECT GET_LOCK('galera_selftest', 0);"
expect_equal "node1 takes the named lock" "$ANSWER" 1
session on_node2 "SELECT GET_LOCK('galera_selftest', 0);"
expect_equal "node2 takes the same named lock while node1 holds it: GET_LOCK is not cluster-wide" "$ANSWER" 1
session on_node1 "SELECT RELEASE_LOCK('galera_selftest');"
session on_node2 "SELECT RELEASE_LOCK('galera_selftest');"

echo "# every node holds the same rows"
checksums=""
for node in 1 2 3; do
  sum=$(query "$node" "SET SESSION wsrep_sync_wait = 1; CHECKSUM TABLE $DATABASE.item, $DATABASE.counter" | cut -f2 | tr '\n' ' ')
  note "node$node: CHECKSUM TABLE item, counter = $sum"
  checksums="$checksums|$sum"
done
first=${checksums#|}
first=${first%%|*}
expect_equal "the three nodes' checksums agree" "$checksums" "|$first|$first|$first"

echo "# all $CHECK checks passed"
