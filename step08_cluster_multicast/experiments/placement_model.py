#!/usr/bin/env python3
"""placement_model.py — what the measured CTA placement does to L2 traffic.

Reads probe_cluster.cu's output on the H100 (probe_cluster.log):
  * %smid of every CTA for a plain launch and for cluster launches;
  * L2 hit latency of 96 addresses from every SM.  Each SM finds some
    addresses ~30 cycles nearer than others; the SMs split into two sets of
    66 with opposite patterns (2-means on the centred latency vectors):
    the two halves of the L2, each attached to 4 of the 8 GPCs.

Model: every wave of concurrent tiles (one per cluster, persistent walk
start = cluster's start index, stride = clusters) needs, in each L2 half,
the A panels (tile rows) and B panels (tile columns) of the tiles its SMs
run.  A panel needed in both halves is fetched into both (the far half
reads it through the L2 fabric).  Printed: panel-rows per wave summed over
the halves, in units of 128-row panels, and how many panels were needed in
both halves; lower is better.

Usage: placement_model.py [probe_cluster.log]   (no GPU needed; the table of NOTES.md, section 1)
"""
import math
import os
import re
import sys


def tile_coords(tiles_m, tiles_n, group, along_n, idx):
    """common/persistent_schedule.h tile_sched_coords, transcribed."""
    slow_tiles = tiles_m if along_n else tiles_n
    group_tiles = tiles_n if along_n else tiles_m
    per_group = group * slow_tiles
    g = idx // per_group
    first = g * group
    width = min(group_tiles - first, group)
    local = idx - g * per_group
    fast = first + local % width
    slow = local // width
    return (slow, fast) if along_n else (fast, slow)


def read_probe(path):
    text = open(path).read()
    place = {}
    for block in text.split("placement ")[1:]:
        head = block.split("\n")[0].split()
        if head[2] != "0":
            continue
        place[head[0]] = [int(x) for x in re.search(r"smid by cta: (.*)", block).group(1).split()]
    lat = {}
    for m in re.finditer(r"^\s+sm\s+(\d+):(.*)$", text, re.M):
        lat[int(m.group(1))] = [float(x) for x in m.group(2).split()]
    return place, lat


def l2_sides(lat):
    sms = sorted(lat)
    n = len(lat[sms[0]])
    col = [sum(lat[s][j] for s in sms) / len(sms) for j in range(n)]
    v = {}
    for s in sms:
        x = [lat[s][j] - col[j] for j in range(n)]
        m = sum(x) / n
        v[s] = [e - m for e in x]

    def corr(a, b):
        return sum(p * q for p, q in zip(a, b)) / math.sqrt(sum(p * p for p in a) * sum(q * q for q in b))

    _, a, b = min((corr(v[a], v[b]), a, b) for a in sms for b in sms)
    c0, c1 = v[a], v[b]
    for _ in range(10):
        g0 = [s for s in sms if corr(v[s], c0) >= corr(v[s], c1)]
        g1 = [s for s in sms if s not in g0]
        c0 = [sum(v[s][j] for s in g0) / len(g0) for j in range(n)]
        c1 = [sum(v[s][j] for s in g1) / len(g1) for j in range(n)]
    side = {s: (0 if s in g0 else 1) for s in sms}
    # name the half that holds SM 0 "0"
    if side[0] == 1:
        side = {s: 1 - x for s, x in side.items()}
    return side


def wave_cost(side_of_cluster, start, cluster_tiles, cm, cn, tiles_m, tiles_n, group, along_n, waves=3):
    """Average over the first waves: (panel-rows fetched into the halves, panels in both halves)."""
    nclu = len(start)
    ctm = (tiles_m + cm - 1) // cm
    ctn = (tiles_n + cn - 1) // cn
    total_cost = total_both = 0
    for w in range(waves):
        need = {0: (set(), set()), 1: (set(), set())}
        for c in range(nclu):
            idx = start[c] + w * nclu
            if idx >= ctm * ctn:
                continue
            m, n = tile_coords(ctm, ctn, group, along_n, idx)
            rows, cols = need[side_of_cluster[c]]
            for r in range(cm):
                rows.add(m * cm + r)
            for q in range(cn):
                cols.add(n * cn + q)
        cost = sum(len(need[h][0]) + len(need[h][1]) for h in (0, 1))
        both = len(need[0][0] & need[1][0]) + len(need[0][1] & need[1][1])
        total_cost += cost
        total_both += both
    return total_cost / waves, total_both / waves


def main():
    # exit codes as the course's programs: 2 for arguments (here: a file that
    # is not probe_cluster.cu's output)
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help")):
        print("usage: placement_model.py [probe_cluster.log]", file=sys.stdout if len(sys.argv) == 2 else sys.stderr)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    path = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe_cluster.log")
    try:
        place, lat = read_probe(path)
    except (OSError, UnicodeDecodeError, AttributeError, IndexError, ValueError) as e:
        print("placement_model.py: cannot read %s as probe_cluster's output: %s" % (path, e), file=sys.stderr)
        sys.exit(2)
    missing = [m for m in ("plain0", "cluster1", "cluster2") if m not in place]
    if missing or len(lat) < 2:
        print("placement_model.py: %s lacks %s" % (path, ", ".join(["placement " + m for m in missing] +
              (["the l2 latency rows"] if len(lat) < 2 else []))), file=sys.stderr)
        sys.exit(2)
    side = l2_sides(lat)
    print("L2 half of each SM (2-means on latency):")
    for h in (0, 1):
        print("  half %d: %d SMs: %s" % (h, sum(1 for s in side if side[s] == h),
                                        " ".join(str(s) for s in sorted(side) if side[s] == h)))
    for mode in ("plain0", "cluster1", "cluster2"):
        seq = "".join(str(side[s]) for s in place[mode])
        print("%-8s L2 half by CTA: %s" % (mode, seq))
    plain_pos = {s: i for i, s in enumerate(place["plain0"])}
    shapes = [(4096, 4096), (8192, 8192), (4096, 14336), (6144, 6144), (8192, 14336)]
    print("\npanel-rows per wave fetched into the two L2 halves (panels needed in both halves); group 8")
    print("%-34s" % "configuration" + "".join("%18s" % ("%dx%d" % s) for s in shapes))
    configs = []
    for along_n in (0, 1):
        configs.append(("plain launch, cluster 1, id", "plain0", 1, 1, "id", along_n))
        configs.append(("cluster launch 1, id", "cluster1", 1, 1, "id", along_n))
        configs.append(("cluster launch 1, plain order", "cluster1", 1, 1, "plain", along_n))
        configs.append(("cluster 2 (share B), id", "cluster2", 2, 1, "id", along_n))
        configs.append(("cluster 2 (share B), plain order", "cluster2", 2, 1, "plain", along_n))
        configs.append(("cluster 2 (share A), id", "cluster2", 1, 2, "id", along_n))
        configs.append(("cluster 2 (share A), plain order", "cluster2", 1, 2, "plain", along_n))
    for label, mode, cm, cn, order, along_n in configs:
        sms = place[mode]
        size = cm * cn
        nclu = len(sms) // size
        side_of_cluster = [side[sms[c * size]] for c in range(nclu)]
        if order == "id":
            start = list(range(nclu))
        else:   # rank clusters by where the plain launch put their first SM
            key = [plain_pos[sms[c * size]] for c in range(nclu)]
            rank = sorted(range(nclu), key=lambda c: key[c])
            start = [0] * nclu
            for r, c in enumerate(rank):
                start[c] = r
        row = "%-34s" % (label + (" N" if along_n else " M"))
        for (m, n) in shapes:
            cost, both = wave_cost(side_of_cluster, start, None, cm, cn, m // 128, n // 128, 8, along_n)
            row += "%18s" % ("%.0f (%.0f)" % (cost, both))
        print(row)


if __name__ == "__main__":
    main()
