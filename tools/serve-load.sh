#!/bin/sh
# Load on a running `glance serve`: N POSTs of one page to /extract, P at a
# time (xargs -P, one curl each), then a table line: answered (200),
# refused (503), other, wall seconds, answered a second, p50/p99 of the
# answered in ms, the slowest 503 in ms, 503s without Retry-After.
#
#   sh tools/serve-load.sh URL PAGE N P [SOURCE_IP] > times
#
# URL: http://127.0.0.1:8080/extract?offline=on; PAGE: an HTML file (or .gz);
# SOURCE_IP binds the clients to that local address (127.0.0.2: another
# client). Each request's "code ms retry-after" is written to stdout, the
# table line to stderr.
set -eu
url=$1 page=$2 n=$3 p=$4 src=${5:-}
body=$(mktemp)
trap 'rm -f "$body" "$body.t"' EXIT
case $page in
*.gz) zcat "$page" >"$body" ;;
*) cp "$page" "$body" ;;
esac
start=$(date +%s.%N)
seq "$n" | xargs -P "$p" -I{} curl -s -o /dev/null --noproxy '*' ${src:+--interface "$src"} \
    -H 'Content-Type: text/html' --data-binary @"$body" \
    -w '%{http_code} %{time_total} %header{retry-after}\n' "$url" | tee "$body.t" |
    awk '{ printf "%s %.1f %s\n", $1, $2 * 1000, $3 }'
end=$(date +%s.%N)
awk -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" '
    $1 == 200 { ok[++n200] = $2 * 1000 }
    $1 == 503 { n503++; if ($2 * 1000 > slow503) slow503 = $2 * 1000; if ($3 == "") noretry++ }
    $1 != 200 && $1 != 503 { other++ }
    END {
        # sort the answered times (insertion sort: at most a few thousand)
        for (i = 2; i <= n200; i++) { v = ok[i]; j = i - 1
            while (j > 0 && ok[j] > v) { ok[j + 1] = ok[j]; j-- } ok[j + 1] = v }
        p50 = n200 ? ok[int((n200 - 1) * 0.50) + 1] : 0
        p99 = n200 ? ok[int((n200 - 1) * 0.99) + 1] : 0
        printf "200 %d | 503 %d | other %d | %.1f s | %.1f answered/s | p50/p99 %.0f/%.0f ms | max 503 %.0f ms | 503 without Retry-After %d\n",
            n200, n503, other, wall, n200 / wall, p50, p99, slow503, noretry
    }' "$body.t" >&2
