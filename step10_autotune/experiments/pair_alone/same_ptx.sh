#!/bin/sh
# pair_alone/same_ptx.sh REV: do the tree's step 10 kernels that REV also had compile to the same PTX?
# (REV before session 23's alone pairs, e.g. b1b1ddf.)  No GPU: nvcc -ptx of both, same_ptx.py compares.
set -u
REV=${1:?usage: same_ptx.sh REV}
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
mkdir -p "$T/s" && git show "$REV:step10_autotune/kernel.cu" > "$T/s/kernel.cu" &&
  git show "$REV:step10_autotune/chooser.h" > "$T/s/chooser.h" || exit 2
F="-O3 -std=c++17 -Icommon -gencode=arch=compute_90a,code=sm_90a -ptx"
nvcc $F "$T/s/kernel.cu" -o "$T/old.ptx" && nvcc $F -Istep10_autotune step10_autotune/kernel.cu -o "$T/new.ptx" || exit 1
python3 "$(dirname "$0")/same_ptx.py" "$T/old.ptx" "$T/new.ptx"
