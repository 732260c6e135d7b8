# stamps.py TRACE.csv [CUPTI_US]: the milestones of one traced launch whose clock starts at
# kernel entry (stamps.sh's patch), per CTA in ns from the earliest entry: the entry, the
# producer's first acquire done (barrier init, the CTA or cluster sync, the walk's first
# unit), its first load issued, consumer 0's first k-tile landed, its first compute done,
# and the last record's end; then CUPTI's run time of that launch, if given, and what the
# trace does not see (CUPTI's time - the last end: the launch before the first entry, and
# the exit after the last record).
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#"))][1:]
ctas = sorted({int(r[0]) for r in rows})
def first(cta, phase, unit=None):
    c = [r for r in rows if int(r[0]) == cta and r[4] == phase and (unit is None or int(r[1]) == unit)]
    return min(c, key=lambda r: int(r[5])) if c else None
last_end = max(int(r[6]) for r in rows)
print("cta  entry  acquired  load_issued  data_landed  first_compute  last_end (ns)")
for c in ctas:
    a = first(c, "producer_acquire"); l = first(c, "producer_load")
    w = first(c, "consumer_wait", 1); m = first(c, "consumer_compute", 1)
    ends = [int(r[6]) for r in rows if int(r[0]) == c]
    print("%3d %6s %9s %12s %12s %14s %9d" % (c, a[5] if a else "-", a[6] if a else "-", l[6] if l else "-",
          w[6] if w else "-", m[6] if m else "-", max(ends)))
if len(sys.argv) > 2:
    us = float(sys.argv[2])
    print("cupti %.2f us; the trace spans %.2f us; outside it %.2f us" % (us, last_end / 1000, us - last_end / 1000))
