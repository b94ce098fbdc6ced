#!/usr/bin/env bash
# usage: wrk-report.sh LABEL URL [extra wrk args...]  → one line: label, req/s, p50, p99, errors (wrk -t1 -c50 -d10s)
label=$1; url=$2; shift 2
out=$(wrk -t1 -c50 -d"${BENCH_SECONDS:-10}"s --latency "$@" "$url" 2>&1)
rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
p50=$(echo "$out" | awk '$1=="50%" {print $2}')
p99=$(echo "$out" | awk '$1=="99%" {print $2}')
errs=$(echo "$out" | grep -E "Non-2xx|Socket errors" | tr '\n' ' ')
printf "%-34s %10s req/s   p50 %8s   p99 %8s   %s\n" "$label" "$rps" "$p50" "$p99" "$errs"
