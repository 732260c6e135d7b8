# draw.py TREE_PICKS VARIANT_PICKS SEED MOVED UNMOVED MIN_US [LIST...]: a list to judge a chooser variant
# on, drawn before any run (session 20; sessions 19's lists were drawn the same way by hand).  The picks
# files are picks.c's "M N K ... pick us" lines (awk '{print $1, $2, $3, $9, $10}') over the same grid,
# one for the tree's chooser.h and one for the variant's.  Left out: every shape of the LISTs (the earlier
# lists), predictions over 3 ms or under MIN_US, and N x K or M x K past 2^31 (the harness refuses them).
# Prints MOVED shapes whose pick the variant moves and UNMOVED it does not, each set sorted by (M, N, K),
# drawn with Python's random.seed(SEED) as random.sample(moved, MOVED), then random.sample(unmoved, UNMOVED).
import random, sys
def picks(path):
    return {tuple(map(int, l.split()[:3])): (l.split()[3], float(l.split()[4])) for l in open(path) if len(l.split()) >= 5}
tree, var = picks(sys.argv[1]), picks(sys.argv[2])
seed, n_moved, n_unmoved, min_us = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
earlier = set()
for f in sys.argv[7:]:
    for l in open(f):
        p = l.split('#')[0].split()
        if len(p) >= 3: earlier.add(tuple(map(int, p[:3])))
ok = lambda s: s not in earlier and min_us <= tree[s][1] <= 3000 and s[1] * s[2] < 2**31 and s[0] * s[2] < 2**31
moved = sorted(s for s in tree if s in var and ok(s) and tree[s][0] != var[s][0])
unmoved = sorted(s for s in tree if s in var and ok(s) and tree[s][0] == var[s][0] and s[0] < 64)
random.seed(seed)
a = sorted(random.sample(moved, n_moved)); b = sorted(random.sample(unmoved, n_unmoved))
print('# drawn: %d moved, %d unmoved with M < 64 to draw from' % (len(moved), len(unmoved)))
for s in a: print('%d\t%d\t%d\t# moved: %s -> %s' % (s + (tree[s][0], var[s][0])))
for s in b: print('%d\t%d\t%d\t# unmoved: %s' % (s + (tree[s][0],)))
