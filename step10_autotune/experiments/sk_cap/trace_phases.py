# trace_phases.py — a timeline (--trace FILE, two CTAs of cluster 0) summed per CTA, role and phase:
# how many records, their total ns, and when the last one ended.  Where does a k loop wait: the
# producer for free slots (producer_acquire), the consumer for data (consumer_wait)?  No GPU.
#   python3 step10_autotune/experiments/sk_cap/trace_phases.py TRACE.csv...
import csv, collections, sys
for f in sys.argv[1:]:
    rows = list(csv.reader(l for l in open(f) if not l.startswith('#')))[1:]
    agg = collections.defaultdict(lambda: [0, 0, 0])
    for r in rows:
        a = agg[(r[0], r[3], r[4])]
        a[0] += 1; a[1] += int(r[6]) - int(r[5]); a[2] = max(a[2], int(r[6]))
    print('== %s: the last record ends at %d ns' % (f, max(a[2] for a in agg.values())))
    for k in sorted(agg):
        print('  cta %s %-9s %-18s n=%4d total %7d ns  last end %7d' % (k + tuple(agg[k])))
