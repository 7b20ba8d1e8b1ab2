#!/bin/sh
# A deploy script as teams write one, shown by wait-alert:
#
#     wait-alert --title Deploy -- sh Examples/deploy/deploy.sh [HOST...]
#
# It builds, uploads with progress, restarts the hosts side by side (each a row of the alert,
# reporting its own steps), then waits for them all; the host named by FAIL_HOST (web-3 unless
# set; empty for none) fails its health check, and the script exits with the number of hosts
# that failed. Outside wait-alert the same script runs with plain output.
set -u
here=$(dirname "$0")
report=${WAIT_ALERT:-wait-alert}
hosts=${*:-web-1 web-2 web-3}

"$report" report --text 'Building release…'
sleep 1
for file in 1 2 3 4; do
    sleep 0.3
    "$report" report --progress "$file/4" --unit files
done
"$report" report --log 'uploaded 4 files'

pids=
for host in $hosts; do
    "$report" report --task "Restarting $host" -- sh "$here/restart.sh" "$host" &
    pids="$pids $!"
done
failed=0
for pid in $pids; do
    wait "$pid" || failed=$((failed + 1))
done
"$report" report --text "Restarted $hosts"
exit "$failed"
