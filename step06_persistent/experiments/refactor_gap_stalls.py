#!/usr/bin/env python3
"""refactor_gap_stalls.py SRC.csv[.gz] ...: where a kernel's warps were sampled stalled.

Reads ncu's per-instruction source page (refactor_gap_ncu.sh writes one per step and
build: `ncu --import REP --page source --print-source sass --csv`) and prints, per file,
the share of all warp-stall samples at
  - the wgmma waits (WARPGROUP.DEPBAR.LE gsb0): the tensor cores are busy;
  - the consumers' full-barrier waits: each mbarrier try_wait run more than 100,000
    times (the k loop's) with the instructions up to its retry branch: data not there;
  - the producer (everything after USETMAXREG.DEALLOC, the producer's branch),
and the instructions executed.  No GPU needed."""
import csv, gzip, sys

def rows_of(path):
    f = gzip.open(path, 'rt') if path.endswith('.gz') else open(path)
    rows = list(csv.reader(f))
    return rows[1], rows[2:]

for path in sys.argv[1:]:
    hdr, data = rows_of(path)
    src, smp, exe = (hdr.index(k) for k in ("Source", "Warp Stall Sampling (All Samples)", "Instructions Executed"))
    total = sum(int(r[smp]) for r in data)
    depbar = sum(int(r[smp]) for r in data if 'DEPBAR.LE gsb0' in r[src])
    full = 0
    for i, r in enumerate(data):
        if 'TRYWAIT' in r[src] and int(r[exe]) >= 100000:
            for j in range(i, min(i + 4, len(data))):
                full += int(data[j][smp])
                if j > i and 'BRA' in data[j][src]:
                    break
    p0 = next(i for i, r in enumerate(data) if 'DEALLOC' in r[src])
    producer = sum(int(r[smp]) for r in data[p0:])
    print("%-50s samples %6d | wgmma waits %5.1f%% | full-barrier waits %5d (%4.1f%%) | producer %5d | instructions %d"
          % (path.split('/')[-1], total, 100.0 * depbar / total, full, 100.0 * full / total, producer,
             sum(int(r[exe]) for r in data)))
