#!/bin/sh
# decode/ratios.sh LOG_DIR...: from tune_sweep.sh's logs, per shape (sorted by M) the model's pick and its
# ratio to cuBLAS, and the best candidate's ratio (each the sweep's line: one interleaved run), then how
# many of the model's are at 1.00, 0.95 and 0.90 or above.  No GPU.
for d in "$@"; do
  for f in "$d"/tune_*.log; do
    s=$(basename "$f" .log); s=${s#tune_}
    pick=$(grep "model's choice" "$f" | awk '{ print $2 }')
    [ -n "$pick" ] || { echo "$s: no explain lines (refused: $(tail -n 1 "$f"))"; continue; }
    r=$(grep "^tune: $pick " "$f" | head -n 1 | sed 's/.*ratio //')
    echo "$s model $pick $r best $(grep '^tune: [0-9]' "$f" | awk '{ print $2, $NF }' | sort -k2 -nr | head -n 1)"
  done
done | sort -t x -k1n -k2n | awk '{ print } $2 == "model" { n++; a += $4 >= 1; b += $4 >= 0.95; c += $4 >= 0.9 }
  END { printf "%d shapes: the model'"'"'s pick at 1.00 or above %d, 0.95 %d, 0.90 %d\n", n, a, b, c }'
