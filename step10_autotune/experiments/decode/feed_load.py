# decode/feed_load.py ROUNDS: feed_load.sh's runs as one CTA's rate: the rows it requests a k-tile (64x64
# at M = 64 and 128: A's 64 and B's 64; a 64x128 CTA of a pair: its half of A, 32, and B's 128) times
# 128 bytes times the k-tiles, over the time past the fixed cost (CHOOSER_T0_US, 7.98 us); the median of
# the rounds.  The CTAs streaming: one a tile (dp, every tile in the first wave).
import re, statistics as st, sys, collections
T0 = 7.98
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'r\d+ (\d+)x(\d+)x(\d+) \S+ .*--config (\S+) --mode dp --stages (\d+): stages=\d+: ([\d.]+) ms', line)
    if m: t[(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4), int(m.group(5)))].append(float(m.group(6)) * 1e3)
print('%-16s %-7s %6s %5s %9s %9s %12s %10s' % ('shape', 'config', 'stages', 'CTAs', 'us', 'kt us', 'GB/s a CTA', 'B from DRAM, TB/s'))
for (M, N, K, c, s), v in sorted(t.items()):
    us = st.median(v); kt = K // 64
    rows = 128 if c == '64x64' else 32 + 128
    ctas = (M // 64) * (N // (64 if c == '64x64' else 128))
    per_kt = (us - T0) / kt
    rate = rows * 128 / per_kt / 1e3
    dram = N * K * 2 / (us - T0) / 1e6   # B once from DRAM (A's rows are few and stay in the L2)
    print('%-16s %-7s %6d %5d %9.1f %9.3f %12.0f %10.2f' % ('%dx%dx%d' % (M, N, K), c, s, ctas, us, per_kt, rate, dram))
