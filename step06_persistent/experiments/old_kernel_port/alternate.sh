#!/bin/sh
# old_kernel_port/alternate.sh OUT STEP "SHAPES" DIR...: each DIR's STEP binary at each
# shape ("M,N,K ..."), ROUNDS rounds (default 4), the order rotated by one every round so
# no build always follows the same one; --no-check, each process the harness's median
# against cuBLAS.  OUT/alternate_runs.txt has a line per process (round, shape, dir, ms,
# ratio); OUT/alternate_table.txt the median time and ratio per shape and dir, with
# [min, max] over the rounds.  FLAGS: more flags for every process (step 10: --no-cache).
# Exits 3 without a GPU.
set -u
OUT=${1:?usage: alternate.sh OUT STEP "SHAPES" DIR...}; STEP=${2:?step}; SHAPES=${3:?shapes}; shift 3
nvidia-smi > /dev/null 2>&1 || { echo "alternate: no GPU here"; exit 3; }
mkdir -p "$OUT"; RAW=$OUT/alternate_runs.txt; : > "$RAW"
ROUNDS=${ROUNDS:-4}
DIRLIST="$*"; n=$#
for r in $(seq 1 "$ROUNDS"); do
  for sh in $SHAPES; do
    m=${sh%%,*}; rest=${sh#*,}; nn=${rest%%,*}; k=${rest#*,}
    for j in $(seq 0 $((n - 1))); do
      d=$(echo "$DIRLIST" | cut -d' ' -f$(( (j + r) % n + 1 )))
      # shellcheck disable=SC2086  # FLAGS is a list of words
      line=$("$d/$STEP" --m "$m" --n "$nn" --k "$k" --no-check ${FLAGS:-} 2>&1 | grep " ms " | head -n1)
      ms=$(echo "$line" | sed -n 's/.*stages=[0-9]*: \([0-9.]*\) ms.*/\1/p')
      ratio=$(echo "$line" | sed -n 's/.*| ratio \([0-9.]*\) |.*/\1/p')
      echo "$r ${m}x${nn}x${k} $d ${ms:-NA} ${ratio:-NA}" >> "$RAW"
    done
  done
done
awk '{ k = $2 " " $3; n[k]++; t[k, n[k]] = $4; q[k, n[k]] = $5; keys[k] = 1 }
     function med(a, k, m,   i, j, x, tmp) { for (i = 1; i <= m; ++i) x[i] = a[k, i]
       for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (x[j] + 0 < x[i] + 0) { tmp = x[i]; x[i] = x[j]; x[j] = tmp }
       lo = x[1]; hi = x[m]; return (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2 }
     END { for (k in keys) { mt = med(t, k, n[k]); tl = lo; th = hi; mq = med(q, k, n[k])
           split(k, f, " ")
           printf "%-18s %-24s time %.4f ms [%.4f, %.4f]  ratio %.3f [%.3f, %.3f]\n", f[1], f[2], mt, tl, th, mq, lo, hi } }' "$RAW" |
  sort > "$OUT/alternate_table.txt"
cat "$OUT/alternate_table.txt"
