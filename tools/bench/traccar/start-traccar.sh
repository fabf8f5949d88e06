#!/usr/bin/env bash
# Start the Traccar built by build-traccar.sh (classes + lib under $TRACCAR_HOME) with traccar.xml
# (TRACCAR_CONF=traccar-pg.xml: on PostgreSQL at TRACCAR_JDBC_URL, default 127.0.0.1:55432 database traccar);
# ports TRACCAR_GT06_PORT, TRACCAR_TELTONIKA_PORT, TRACCAR_WEB_PORT (7623, 7627, 8990).
# Writes the session leader pid (kill -- -PID stops it) to $PIDFILE; waits until the device ports listen.
set -euo pipefail
T=${TRACCAR_HOME:-$PWD/.traccar}; : "${PIDFILE:=$T/traccar.pid}"
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$T/conf" "$T/logs" "$T/data" "$T/web"
GT06_PORT=${TRACCAR_GT06_PORT:-7623}; TELTONIKA_PORT=${TRACCAR_TELTONIKA_PORT:-7627}; WEB_PORT=${TRACCAR_WEB_PORT:-8990}
JDBC_URL=${TRACCAR_JDBC_URL:-jdbc:postgresql://127.0.0.1:55432/traccar}
sed -e "s|@TRACCAR_HOME@|$T|g" -e "s|@GT06_PORT@|$GT06_PORT|g" -e "s|@TELTONIKA_PORT@|$TELTONIKA_PORT|g" -e "s|@WEB_PORT@|$WEB_PORT|g" -e "s|@JDBC_URL@|$JDBC_URL|g" \
  "$(dirname "$0")/${TRACCAR_CONF:-traccar.xml}" > "$T/conf/traccar.xml"
cd "$T"
setsid bash -c 'echo $$ > "$0"; exec "$1" -XX:+ExitOnOutOfMemoryError -cp "classes:lib/*" org.traccar.Main conf/traccar.xml' "$PIDFILE" "$JAVA" > "$T/logs/stdout.log" 2>&1 &
for i in $(seq 1 180); do
  if ss -ltn | grep -q ":$GT06_PORT " && ss -ltn | grep -q ":$TELTONIKA_PORT " && curl -s -o /dev/null "http://127.0.0.1:$WEB_PORT/api/server"; then echo "traccar up after ${i}s, pid $(cat "$PIDFILE")"; exit 0; fi
  sleep 1
done
echo "Traccar did not start in 180 s"; tail -30 "$T/logs/stdout.log"; exit 1
