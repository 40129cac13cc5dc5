#!/usr/bin/env bash
# A throwaway three-node MariaDB Galera cluster on this machine, for the cluster test suites.
#
#   scripts/galera-cluster.sh start        start (or finish starting) the cluster; waits for 3 x Synced
#   scripts/galera-cluster.sh stop         shut every node down cleanly (3, 2, then 1)
#   scripts/galera-cluster.sh status       each node's membership and state; exit 0 only when healthy
#   scripts/galera-cluster.sh kill N       SIGKILL node N (a crash); waits until the others evict it
#   scripts/galera-cluster.sh restart N    (re)start node N as a joiner; waits until it is Synced
#   scripts/galera-cluster.sh destroy      stop, then delete every node's data
#   scripts/galera-cluster.sh env [DB]     print GALERA_URLS=mysql://root@127.0.0.1:4401/DB,…
#
# Node N lives in $GALERA_DIR/nodeN (my.cnf, data/, mysqld.sock, mysqld.pid, error.log) and listens on
# 127.0.0.1 only: SQL clients on GALERA_BASE_PORT+N, group communication on +10+N, incremental state
# transfer (IST) on +20+N and full state transfer (rsync SST) on +30+N; with the default base 4400 that
# is 4401-4403, 4411-4413, 4421-4423 and 4431-4433. root has an empty password, over the socket and
# over TCP: this cluster holds nothing but test data.
#
# Environment: GALERA_DIR (default <project>/.galera), GALERA_BASE_PORT (4400), GALERA_TIMEOUT
# (seconds to wait for the cluster, 120), MARIADBD (/usr/sbin/mariadbd), GALERA_PROVIDER
# (/usr/lib/galera/libgalera_smm.so), GALERA_PROVIDER_OPTIONS (more wsrep_provider_options, e.g.
# "evs.keepalive_period=PT0.5S;evs.suspect_timeout=PT2S;evs.inactive_timeout=PT4S" to evict a killed
# node sooner; a node takes them when it starts).
set -euo pipefail

PROJECT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GALERA_DIR_GIVEN=${GALERA_DIR:-}
GALERA_DIR=${GALERA_DIR:-$PROJECT_DIR/.galera}
LINK=
BASE_PORT=${GALERA_BASE_PORT:-4400}
TIMEOUT=${GALERA_TIMEOUT:-120}
MARIADBD=${MARIADBD:-/usr/sbin/mariadbd}
PROVIDER=${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}
EXTRA_PROVIDER_OPTIONS=${GALERA_PROVIDER_OPTIONS:-}
NODES=(1 2 3)
MARKER=.galera-test-cluster
DEFAULT_DATABASE=sensor_records_galera_test

say() { printf 'galera: %s\n' "$*"; }
fail() {
  printf 'galera: FAIL: %s\n' "$*" >&2
  exit 1
}

node_dir() { printf '%s/node%s' "$GALERA_DIR" "$1"; }
config_file() { printf '%s/my.cnf' "$(node_dir "$1")"; }
socket_file() { printf '%s/mysqld.sock' "$(node_dir "$1")"; }
pid_file() { printf '%s/mysqld.pid' "$(node_dir "$1")"; }
launch_pid_file() { printf '%s/launched.pid' "$(node_dir "$1")"; }
log_file() { printf '%s/error.log' "$(node_dir "$1")"; }
data_dir() { printf '%s/data' "$(node_dir "$1")"; }
client_port() { echo $((BASE_PORT + $1)); }
gcomm_port() { echo $((BASE_PORT + 10 + $1)); }
ist_port() { echo $((BASE_PORT + 20 + $1)); }
sst_port() { echo $((BASE_PORT + 30 + $1)); }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Started by root (as in CI), the nodes run as the mysql user the mariadb-server package creates, and
# their directories belong to it: mariadbd refuses root without being told, and the rsync daemon that
# receives a state transfer, when started as root, switches to "nobody", which cannot write the data
# directory. Started by anyone else, they run as that user.
RUN_AS=
USER_OPTION=()
if [ "$(id -u)" -eq 0 ]; then
  RUN_AS=${GALERA_USER:-mysql}
  USER_OPTION=(--user="$RUN_AS")
fi

# The nodes' user must reach their files. When it cannot reach the project (a checkout under /root,
# say), the default .galera becomes a link to a directory of its own under /var/tmp.
link_galera_dir_if_unreachable() {
  local target
  if [ -z "$GALERA_DIR_GIVEN" ] && [ -n "$RUN_AS" ] && [ ! -e "$GALERA_DIR" ] &&
    ! runuser -u "$RUN_AS" -- test -x "$PROJECT_DIR"; then
    target=$(mktemp -d /var/tmp/sensor-records-galera.XXXXXX)
    chmod 755 "$target"
    ln -s "$target" "$GALERA_DIR"
    say "$RUN_AS cannot reach $PROJECT_DIR; the nodes live in $target ($GALERA_DIR links there)"
    resolve_galera_dir
  fi
}

# Every path is built from the link's target, so that each command names the files the nodes were
# started with.
resolve_galera_dir() {
  if [ -L "$GALERA_DIR" ]; then
    LINK=$GALERA_DIR
    GALERA_DIR=$(readlink -f "$GALERA_DIR")
  fi
}

# Gives node N's directory to the user its mariadbd runs as, and checks that user can reach it.
own_node_dir() {
  local dir
  dir=$(node_dir "$1")
  [ -n "$RUN_AS" ] || return 0
  id "$RUN_AS" >/dev/null 2>&1 || fail "user $RUN_AS does not exist (install mariadb-server, or set GALERA_USER)"
  chown -R "$RUN_AS:" "$dir"
  runuser -u "$RUN_AS" -- test -w "$dir/data" -a -r "$(config_file "$1")" ||
    fail "user $RUN_AS cannot reach $dir (a parent directory closed to it?); set GALERA_DIR elsewhere"
}

# --no-defaults everywhere: the machine's /etc/mysql/my.cnf belongs to the standalone server and names
# its socket, data directory and pid file.
sql() {
  local node=$1
  shift
  timeout 15 mariadb --no-defaults --protocol=socket --socket="$(socket_file "$node")" --user=root \
    --connect-timeout=3 --batch --skip-column-names -e "$*"
}

# The pid of node N's mariadbd, if that process is alive (a pid file left by a crash, or a pid reused
# by another process, does not count).
node_pid() {
  local pid file
  for file in "$(launch_pid_file "$1")" "$(pid_file "$1")"; do
    pid=$(cat "$file" 2>/dev/null) || continue
    [[ $pid =~ ^[0-9]+$ ]] || continue
    if { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "--defaults-file=$(config_file "$1")"; then
      echo "$pid"
      return
    fi
  done
  return 1
}
running() { node_pid "$1" >/dev/null; }

# "size status state ready" of node N, e.g. "3 Primary Synced ON"; fails when the node does not answer.
wsrep_state() {
  sql "$1" "SHOW GLOBAL STATUS LIKE 'wsrep\\_%'" 2>/dev/null | awk -F'\t' '
    $1 == "wsrep_cluster_size" { size = $2 }
    $1 == "wsrep_cluster_status" { status = $2 }
    $1 == "wsrep_local_state_comment" { state = $2 }
    $1 == "wsrep_ready" { ready = $2 }
    END { if (size == "") exit 1; printf "%s %s %s %s\n", size, status, state, ready }'
}

running_nodes() {
  local n
  for n in "${NODES[@]}"; do if running "$n"; then printf '%s ' "$n"; fi; done
}

check_prerequisites() {
  local tool
  [ -x "$MARIADBD" ] || fail "$MARIADBD not found (install mariadb-server, or set MARIADBD)"
  [ -r "$PROVIDER" ] || fail "$PROVIDER not found (install galera-4, or set GALERA_PROVIDER)"
  for tool in mariadb mariadb-admin mariadb-install-db wsrep_sst_rsync rsync ss flock timeout setsid ${RUN_AS:+runuser}; do
    command -v "$tool" >/dev/null || fail "$tool not found on PATH (packages: mariadb-server, mariadb-client, galera-4, rsync, iproute2, util-linux, coreutils)"
  done
}

write_config() {
  local n=$1 dir members
  dir=$(node_dir "$n")
  members="127.0.0.1:$(gcomm_port 1),127.0.0.1:$(gcomm_port 2),127.0.0.1:$(gcomm_port 3)"
  mkdir -p "$dir/tmp" "$(data_dir "$n")"
  cat >"$(config_file "$n")" <<EOF
# Node $n of the throwaway test cluster; written by scripts/galera-cluster.sh on every start.
[mysqld]
datadir = $(data_dir "$n")
socket = $(socket_file "$n")
pid-file = $(pid_file "$n")
log-error = $(log_file "$n")
tmpdir = $dir/tmp
bind-address = 127.0.0.1
port = $(client_port "$n")
skip-name-resolve
# As the standalone MariaDB the suites also run on.
character-set-server = utf8mb4
collation-server = utf8mb4_general_ci

# Small: three nodes, the service and its tests share two cores.
performance_schema = OFF
innodb_buffer_pool_size = 64M
innodb_log_file_size = 32M
innodb_log_buffer_size = 8M
key_buffer_size = 8M
aria_pagecache_buffer_size = 8M
# A killed process loses nothing at 2 (the OS still holds the log); only a machine crash would.
innodb_flush_log_at_trx_commit = 2

# What Galera requires.
binlog_format = ROW
default_storage_engine = InnoDB
innodb_autoinc_lock_mode = 2

wsrep_on = ON
wsrep_provider = $PROVIDER
wsrep_cluster_name = sensor-records-test
wsrep_cluster_address = gcomm://$members
wsrep_node_name = node$n
wsrep_node_address = 127.0.0.1:$(gcomm_port "$n")
wsrep_node_incoming_address = 127.0.0.1:$(client_port "$n")
wsrep_sst_method = rsync
wsrep_sst_receive_address = 127.0.0.1:$(sst_port "$n")
wsrep_provider_options = "gmcast.listen_addr=tcp://127.0.0.1:$(gcomm_port "$n");ist.recv_addr=127.0.0.1:$(ist_port "$n");gcache.size=32M;gcache.page_size=32M${EXTRA_PROVIDER_OPTIONS:+;$EXTRA_PROVIDER_OPTIONS}"
wsrep_slave_threads = 2
wsrep_log_conflicts = ON
EOF
  own_node_dir "$n"
}

# A node "has data" once it has been initialised or has taken part in a cluster.
has_data() {
  [ -f "$(node_dir "$1")/initialized" ] || [ -f "$(data_dir "$1")/grastate.dat" ]
}

initialize() {
  local n=$1 dir
  dir=$(node_dir "$n")
  rm -rf "$(data_dir "$n")"
  mkdir -p "$(data_dir "$n")"
  say "node$n: creating the system tables"
  # normal: root@localhost, root@127.0.0.1 and root@::1 with an empty password (the default, socket,
  # would leave root reachable over the unix socket only).
  if ! mariadb-install-db --defaults-file="$(config_file "$n")" "${USER_OPTION[@]}" --auth-root-authentication-method=normal \
    --skip-test-db >"$dir/install.log" 2>&1; then
    tail -n 30 "$dir/install.log" >&2
    fail "node$n: mariadb-install-db failed (log: $dir/install.log)"
  fi
  touch "$dir/initialized"
}

grastate_value() { sed -n "s/^$2:[[:space:]]*//p" "$(data_dir "$1")/grastate.dat" 2>/dev/null | head -n 1; }

# The last committed seqno in node N's data, asking InnoDB when a crash left grastate.dat without it.
recovered_seqno() {
  local n=$1 seqno position
  seqno=$(grastate_value "$n" seqno)
  if [ -n "$seqno" ] && [ "$seqno" != "-1" ]; then
    echo "$seqno"
    return
  fi
  position=$(recover_position "$n") || { echo -1; return; }
  echo "${position##*:}"
}

# "uuid:seqno" as node N's storage engine has it (mariadbd --wsrep-recover, which exits at once).
recover_position() {
  local n=$1 log
  log="$(node_dir "$n")/recover.log"
  "$MARIADBD" --defaults-file="$(config_file "$n")" "${USER_OPTION[@]}" --wsrep-recover --log-error="$log" >/dev/null 2>&1 || true
  sed -n 's/.*WSREP: Recovered position: *//p' "$log" | tail -n 1 | grep -E '^[0-9a-f-]{36}:-?[0-9]+$'
}

# Of the stopped nodes, the one whose data is newest: the last to leave a clean shutdown
# (safe_to_bootstrap: 1), otherwise the highest seqno; node 1 for a new cluster.
choose_bootstrap_node() {
  local n best="" best_seqno=-2 seqno
  for n in "${NODES[@]}"; do
    if has_data "$n" && [ "$(grastate_value "$n" safe_to_bootstrap)" = "1" ]; then
      echo "$n"
      return
    fi
  done
  for n in "${NODES[@]}"; do
    has_data "$n" || continue
    seqno=$(recovered_seqno "$n")
    if [ "$seqno" -gt "$best_seqno" ]; then
      best=$n
      best_seqno=$seqno
    fi
  done
  echo "${best:-1}"
}

check_ports_free() {
  local n=$1 port
  for port in "$(client_port "$n")" "$(gcomm_port "$n")" "$(ist_port "$n")" "$(sst_port "$n")"; do
    if ss -Htln "sport = :$port" | grep -q .; then
      fail "node$n: port $port on this machine is already in use (another cluster? set GALERA_BASE_PORT)"
    fi
  done
}

# After a crash grastate.dat no longer says where node N's data stands, InnoDB does; a node that
# says where it stands receives only the transactions it missed (IST) instead of a full copy (SST),
# which would hold a read lock on its donor for the whole copy.
start_position_option() {
  local n=$1 position
  [ "$(grastate_value "$n" seqno)" = "-1" ] || return 0
  position=$(recover_position "$n") || return 0
  echo "--wsrep-start-position=$position"
}

# Starts node N's mariadbd in a session of its own, so that neither a terminal hang-up nor a signal to
# the caller's process group (a test runner being stopped) takes the node down with it.
launch() {
  local n=$1 dir pid position
  local -a options
  shift
  dir=$(node_dir "$n")
  check_ports_free "$n"
  position=$(start_position_option "$n")
  options=("$@")
  if [ -n "$position" ]; then
    say "node$n: recovered ${position#--}"
    options=("$position" "$@")
  fi
  rm -f "$(socket_file "$n")" "$(socket_file "$n").lock" "$(pid_file "$n")" "$(launch_pid_file "$n")"
  printf '\n==== %s: starting node%s %s\n' "$(date '+%F %T')" "$n" "$*" >>"$(log_file "$n")"
  own_node_dir "$n"
  : >"$dir/mariadbd.out"
  (exec setsid "$MARIADBD" --defaults-file="$(config_file "$n")" "${USER_OPTION[@]}" "${options[@]}" </dev/null >>"$dir/mariadbd.out" 2>&1 9>&-) &
  pid=$!
  # mariadbd writes its pid file only once its state transfer is done; this one lets node_pid see the
  # node from the start (setsid has no need to fork here, so this is mariadbd's own pid).
  echo "$pid" >"$(launch_pid_file "$n")"
  # The subshell becomes mariadbd a moment later (exec); until then node_pid does not recognise it.
  for _ in $(seq 1 100); do
    running "$n" && break
    grep -qs '^State:[[:space:]]*[^Z]' "/proc/$pid/status" || break # gone, or a zombie: it died
    sleep 0.05
  done
}

show_logs() {
  local file
  for file in "$(node_dir "$1")/mariadbd.out" "$(log_file "$1")"; do
    [ -s "$file" ] || continue
    printf 'galera: the end of %s:\n' "$file" >&2
    tail -n 30 "$file" >&2
  done
}

# Waits until each node in "$1" is Synced, ready and a member of a primary component of "$2" nodes.
wait_synced() {
  local nodes=$1 size=$2 started last_report=0 n state states all_synced elapsed
  started=$(now)
  while true; do
    all_synced=1
    states=""
    for n in $nodes; do
      if ! running "$n"; then
        show_logs "$n"
        fail "node$n died while starting"
      fi
      state=$(wsrep_state "$n") || state="(starting)"
      [ "$state" = "$size Primary Synced ON" ] || all_synced=0
      states="$states node$n: $state;"
    done
    elapsed=$(since "$started")
    if [ "$all_synced" = 1 ]; then
      say "synced after ${elapsed}s:$states"
      return
    fi
    if awk -v e="$elapsed" -v t="$TIMEOUT" 'BEGIN { exit !(e > t) }'; then
      for n in $nodes; do show_logs "$n"; done
      fail "not synced after ${TIMEOUT}s:$states"
    fi
    if awk -v e="$elapsed" -v l="$last_report" 'BEGIN { exit !(e - l >= 5) }'; then
      say "waiting (${elapsed}s):$states"
      last_report=$elapsed
    fi
    sleep 0.5
  done
}

# After a node leaves or dies the others take a few seconds to agree on a new membership. Waits until
# every running node either reports a primary component of exactly the running nodes or has lost
# quorum (non-Primary), so that what follows sees the settled cluster.
wait_settled() {
  local started n nodes count state
  started=$(now)
  while true; do
    nodes=$(running_nodes)
    count=$(wc -w <<<"$nodes")
    local settled=1
    for n in $nodes; do
      state=$(wsrep_state "$n") || state=""
      case "$state" in
        "$count Primary "*) ;;
        *" non-Primary "* | *" Disconnected "*) ;;
        *) settled=0 ;;
      esac
    done
    [ "$settled" = 1 ] && return
    if awk -v e="$(since "$started")" -v t="$TIMEOUT" 'BEGIN { exit !(e > t) }'; then
      fail "membership did not settle after ${TIMEOUT}s"
    fi
    sleep 0.5
  done
}

# A node can only join a primary component. When every survivor has lost quorum (two of three
# killed), the one with the newest data is declared primary again.
ensure_primary() {
  local n state best="" best_seqno=-2 seqno
  wait_settled
  for n in $(running_nodes); do
    state=$(wsrep_state "$n") || continue
    case "$state" in *" Primary "*) return ;; esac
  done
  for n in $(running_nodes); do
    seqno=$(sql "$n" "SHOW GLOBAL STATUS LIKE 'wsrep_last_committed'" | cut -f2) || continue
    if [ "$seqno" -gt "$best_seqno" ]; then
      best=$n
      best_seqno=$seqno
    fi
  done
  [ -n "$best" ] || fail "no running node answers"
  say "node$best: no primary component left; bootstrapping one from node$best (seqno $best_seqno)"
  sql "$best" "SET GLOBAL wsrep_provider_options='pc.bootstrap=YES'"
  wait_settled
}

# root over TCP with an empty password, as the test suites connect (mariadb-install-db created it; this
# keeps a data directory from elsewhere usable too). Replicated to every node.
ensure_tcp_root() {
  sql "$1" "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"
}

check_tcp_login() {
  local n
  for n in "${NODES[@]}"; do
    timeout 15 mariadb --no-defaults --protocol=tcp --host=127.0.0.1 --port="$(client_port "$n")" --user=root \
      --connect-timeout=3 --batch --skip-column-names -e 'SELECT 1' >/dev/null ||
      fail "node$n: root cannot log in over TCP on 127.0.0.1:$(client_port "$n")"
  done
}

lock() {
  mkdir -p "$GALERA_DIR"
  touch "$GALERA_DIR/$MARKER"
  exec 9>"$GALERA_DIR/.lock"
  flock -w "$TIMEOUT" 9 || fail "another galera-cluster.sh command holds $GALERA_DIR/.lock"
}

healthy() {
  local n
  for n in "${NODES[@]}"; do
    [ "$(wsrep_state "$n" 2>/dev/null)" = "3 Primary Synced ON" ] || return 1
  done
}

cmd_start() {
  local started n bootstrap up
  started=$(now)
  check_prerequisites
  link_galera_dir_if_unreachable
  lock
  if healthy; then
    say "already running: 3 nodes Synced"
    return
  fi
  for n in "${NODES[@]}"; do write_config "$n"; done
  up=$(running_nodes)
  for n in "${NODES[@]}"; do running "$n" || check_ports_free "$n"; done
  if [ -z "$up" ]; then
    bootstrap=$(choose_bootstrap_node)
    has_data "$bootstrap" || initialize "$bootstrap"
    for n in "${NODES[@]}"; do
      # Membership saved by a crashed run would make a node wait for its old peers; start afresh.
      rm -f "$(data_dir "$n")/gvwstate.dat"
    done
    sed -i 's/^safe_to_bootstrap:.*/safe_to_bootstrap: 1/' "$(data_dir "$bootstrap")/grastate.dat" 2>/dev/null || true
    say "node$bootstrap: bootstrapping a new primary component"
    launch "$bootstrap" --wsrep-new-cluster
    wait_synced "$bootstrap" 1
    ensure_tcp_root "$bootstrap"
  else
    ensure_primary
  fi
  # One at a time: a node asking to join while another is still receiving its state waits for the
  # membership to settle, which costs more than the wait.
  for n in "${NODES[@]}"; do
    running "$n" && continue
    say "node$n: joining"
    launch "$n"
    up=$(running_nodes)
    wait_synced "$up" "$(wc -w <<<"$up")"
  done
  wait_synced "1 2 3" 3
  check_tcp_login
  say "cluster up in $(since "$started")s; $(cmd_env)"
}

# A clean shutdown (through the socket, or SIGTERM when the node does not answer there), then SIGKILL
# if the node is still there a minute later.
stop_node() {
  local n=$1 pid
  pid=$(node_pid "$n") || return 0
  say "node$n: shutting down (pid $pid)"
  if ! timeout 60 mariadb-admin --no-defaults --socket="$(socket_file "$n")" --user=root --connect-timeout=3 \
    --shutdown-timeout=50 shutdown >/dev/null 2>&1; then
    # Not answering (still receiving its state, say): SIGTERM asks for the same clean shutdown.
    say "node$n: not answering on its socket; SIGTERM"
    kill -TERM "$pid" 2>/dev/null || true
  fi
  for _ in $(seq 1 120); do
    running "$n" || return 0
    sleep 0.5
  done
  say "node$n: still running; SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 1
}

cmd_stop() {
  local n started
  started=$(now)
  [ -d "$GALERA_DIR" ] || { say "nothing to stop ($GALERA_DIR does not exist)"; return; }
  lock
  # The last to leave is marked safe to bootstrap, so node 1 leads the next start.
  for n in 3 2 1; do stop_node "$n"; done
  say "stopped in $(since "$started")s"
}

cmd_status() {
  local n pid state size status local_state ready healthy=0
  for n in "${NODES[@]}"; do
    if ! pid=$(node_pid "$n"); then
      printf 'node%s 127.0.0.1:%s: down\n' "$n" "$(client_port "$n")"
    elif ! state=$(wsrep_state "$n"); then
      printf 'node%s 127.0.0.1:%s pid %s: not answering (starting, or receiving its state)\n' "$n" "$(client_port "$n")" "$pid"
    else
      read -r size status local_state ready <<<"$state"
      printf 'node%s 127.0.0.1:%s pid %s: cluster_size=%s status=%s state=%s ready=%s\n' \
        "$n" "$(client_port "$n")" "$pid" "$size" "$status" "$local_state" "$ready"
      [ "$state" = "3 Primary Synced ON" ] && healthy=$((healthy + 1))
    fi
  done
  [ "$healthy" = 3 ]
}

node_argument() {
  case "${1:-}" in
    1 | 2 | 3) ;;
    *) fail "expected a node number, 1, 2 or 3 (got '${1:-}')" ;;
  esac
}

cmd_kill() {
  local n=$1 pid started
  node_argument "$n"
  lock
  pid=$(node_pid "$n") || fail "node$n is not running"
  started=$(now)
  kill -KILL "$pid"
  while [ -e "/proc/$pid" ] && running "$n"; do sleep 0.1; done
  say "node$n: killed (pid $pid)"
  wait_settled
  say "node$n: the others agree on their membership $(since "$started")s after the kill"
  cmd_status || true
}

cmd_restart() {
  local n=$1 started others=""
  node_argument "$n"
  check_prerequisites
  lock
  started=$(now)
  others=$(running_nodes | sed "s/\b$n \?//")
  [ -n "$others" ] || fail "no other node is running for node$n to join: use start"
  stop_node "$n"
  write_config "$n"
  ensure_primary
  say "node$n: joining"
  launch "$n"
  wait_synced "$(running_nodes)" "$(running_nodes | wc -w)"
  say "node$n: rejoined in $(since "$started")s"
}

cmd_destroy() {
  [ -d "$GALERA_DIR" ] || { say "nothing to destroy ($GALERA_DIR does not exist)"; return; }
  [ -f "$GALERA_DIR/$MARKER" ] || fail "$GALERA_DIR was not made by this script; not deleting it"
  cmd_stop
  rm -rf "$GALERA_DIR"
  if [ -n "$LINK" ]; then rm -f "$LINK"; fi
  say "deleted $GALERA_DIR"
}

cmd_env() {
  local database=${1:-$DEFAULT_DATABASE} urls="" n
  for n in "${NODES[@]}"; do urls="$urls${urls:+,}mysql://root@127.0.0.1:$(client_port "$n")/$database"; done
  echo "GALERA_URLS=$urls"
}

usage() {
  sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

resolve_galera_dir
case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  kill) cmd_kill "${2:-}" ;;
  restart) cmd_restart "${2:-}" ;;
  destroy) cmd_destroy ;;
  env) cmd_env "${2:-}" ;;
  *) usage ;;
esac
