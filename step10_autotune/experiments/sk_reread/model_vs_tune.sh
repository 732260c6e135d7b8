#!/bin/sh
# sk_reread/model_vs_tune.sh EXPLAIN TUNE_LOG...: every candidate's measured time (--tune's sweep, one run each)
# beside the model's (EXPLAIN: experiments/decode/explain.c built against a chooser.h, the tree's or variant.py's,
# run with the H200's numbers), and their ratio.  No GPU.  TUNE_LOG: variant_tune's LOG (experiments/variant.sh).
#   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/decode/explain.c -o build/explain
#   sh step10_autotune/experiments/sk_reread/model_vs_tune.sh build/explain step10_autotune/experiments/sk_scatter/logs/tune_variant_shapes_54fb874.txt
set -u
EXPLAIN=${1:?usage: model_vs_tune.sh EXPLAIN TUNE_LOG...}; shift
TMP=$(mktemp -d) && trap 'rm -rf "$TMP"' EXIT
cat "$@" | awk '/^== [0-9]+x[0-9]+x[0-9]+ / { sh = $2 } /^tune: [0-9a-z]+\/[a-z_0-9]+ / && sh { print sh, $2, $3 * 1000 }' > "$TMP/meas"
for sh in $(awk '{ print $1 }' "$TMP/meas" | sort -u); do
  echo "$sh" | tr x ' ' | "$EXPLAIN" 132 62914560 4814.3 | awk -v s="$sh" '$1 ~ /\// && NF >= 9 { print s, $1, $9 }'
done > "$TMP/pred"
awk 'FILENAME ~ /pred$/ { p[$1 " " $2] = $3; next } ($1 " " $2) in p { k = $1 " " $2
     printf "%-18s %-15s measured %7.1f us  model %7.1f us  measured/model %.3f\n", $1, $2, $3, p[k], $3 / p[k] }' \
  "$TMP/pred" "$TMP/meas" | sort
