#!/bin/sh
# Restarts one host for deploy.sh: its steps are reported to its own row (wait-alert report
# --task tells it which row it is), its output is the row's text, and a failed health check
# ends it with status 1 — its last lines show under the row's failure.
set -u
host=$1
report=${WAIT_ALERT:-wait-alert}
echo "stopping $host"
"$report" report --progress 1/3
sleep 1
echo "starting $host"
"$report" report --progress 2/3
sleep 1
if [ "$host" = "${FAIL_HOST-web-3}" ]; then
    echo "GET /health -> 503"
    exit 1
fi
echo "GET /health -> 200"
"$report" report --progress 3/3
