#!/bin/sh
# sk_cap/judge_variants.sh OUT: which rule for offering sk_cap, judged on logs already taken (no GPU)?
# fixup_writers/fit_more.c (its judging: the model's pick within 3% of the best candidate measured,
# FIXUP_MORE=2, the tree's) compiled against variants of chooser.h:
#   tree          the tree's: sk_cap offered where fewer tiles than units, A and B in half the L2,
#                 a CTA alone (64x64)
#   all           offered to every configuration (the first binary of session 18)
#   all_landed    all, and one SM's feed counting what lands in its shared memory (bm + bn box rows:
#                 the partner's multicast half too) instead of the boxes it issues
#   alone_landed  the tree's offer with that feed
#   all_landed_aligned   all_landed, the feed without the misaligned-K factor (CHOOSER_MISALIGNED)
#   all_pp_landed        all, the landed feed for the pingpong tiles only (the cooperative pair's as
#                        the tree's: with it the misaligned factor makes the feed bind 128x256c)
#   none, none_landed, none_landed_aligned   sk_cap never offered (the logs taken before it existed)
# on session 18's first sweep (logs/first_offer/, H200), session 17's (fixup_writers, H200) and
# session 15's held-out and fit sweeps (logs/menu5c1/, H100).  Writes OUT.
set -u
OUT=${1:?usage: judge_variants.sh OUT}
HERE=$(dirname "$0")
T=$(mktemp -d)
H200="132 62914560 4814.3"; H100="132 52428800 3352.0"
for v in tree all all_landed alone_landed all_landed_aligned all_pp_landed none none_landed none_landed_aligned none_pp_landed; do
  mkdir -p "$T/$v" && cp step10_autotune/chooser.h "$T/$v/"
  case $v in all*) sed -i 's/return c->cluster == 1 \&\& e->cluster_tiles/return e->cluster_tiles/' "$T/$v/chooser.h" ;;
             none*) sed -i 's/return c->cluster == 1 \&\& e->cluster_tiles/return 0 \&\& e->cluster_tiles/' "$T/$v/chooser.h" ;; esac
  case $v in *pp_landed) sed -i 's/const double feed_kt_us = chooser_box_rows(c, M) \* 128.0/const double feed_kt_us = (c->tile_wgs == 1 ? c->bm + c->bn : chooser_box_rows(c, M)) * 128.0/' "$T/$v/chooser.h" ;;
             *landed*) sed -i 's/const double feed_kt_us = chooser_box_rows(c, M) \* 128.0/const double feed_kt_us = (c->bm + c->bn) * 128.0/' "$T/$v/chooser.h" ;; esac
  case $v in *aligned) python3 -c 'import sys; p = sys.argv[1]; s = open(p).read(); o = "/ (CHOOSER_SM_GBS * 1e3) *\n                              (K % CHOOSER_BK ? CHOOSER_MISALIGNED : 1.0);"; assert o in s; open(p, "w").write(s.replace(o, "/ (CHOOSER_SM_GBS * 1e3);"))' "$T/$v/chooser.h" || exit 1 ;; esac
  [ "$v" = tree ] || ! cmp -s step10_autotune/chooser.h "$T/$v/chooser.h" || { echo "variant $v: chooser.h changed, the edit no longer applies"; exit 1; }
  nvcc -O2 -Icommon -I"$T/$v" "$HERE/../fixup_writers/fit_more.c" -o "$T/fm_$v" || exit 1
done
judge() {   # VARIANT DEVICE DIR
  echo "$1 $(basename "$3"): $(FIXUP_MORE=2 "$T/fm_$1" $2 "$3"/tune_*.log | head -n 1 | sed 's/SK_FIXUP_MORE_KT  2: //')"
}
{
  echo "# session 18's first sweep (sk_cap offered to every configuration), H200"
  for v in tree all all_landed alone_landed all_landed_aligned all_pp_landed; do
    for l in cap kheavy_few_tiles many_sharers small_unseen; do judge $v "$H200" "$HERE/logs/first_offer/tune_$l"; done
  done
  echo "# the logs taken before sk_cap (judged without it): session 17's sweeps (H200), session 15's (H100)"
  for v in none none_landed none_landed_aligned none_pp_landed; do
    for l in feed heldout small_unseen kheavy_few_tiles many_sharers; do judge $v "$H200" "$HERE/../fixup_writers/logs/final/tune_$l"; done
    for l in tune_fit tune_heldout; do judge $v "$H100" "$HERE/../logs/menu5c1/$l"; done
  done
  echo "# the picks that move between none and none_landed on session 15's held-out sweep (H100)"
  FIXUP_MORE=2 "$T/fm_none" $H100 "$HERE/../logs/menu5c1/tune_heldout"/tune_*.log | tail -n +3 > "$T/a"
  FIXUP_MORE=2 "$T/fm_none_landed" $H100 "$HERE/../logs/menu5c1/tune_heldout"/tune_*.log | tail -n +3 > "$T/b"
  diff "$T/a" "$T/b"
} > "$OUT"
rm -rf "$T"
cat "$OUT"
