# late_patch.py IN OUT [STEP]: a consumer that asks for its unit's k range before the
# mainloop and for the tile's coordinates only after it (step 06's NOTES, "The cause,
# bisected": the coordinates' arithmetic in front of a tile's first wgmma).  STEP 06, 08
# or 10 (default 10) names which kernel.cu IN is.  Exits 1 if IN no longer matches.
import sys
src, dst = sys.argv[1], sys.argv[2]
step = sys.argv[3] if len(sys.argv) > 3 else "10"
s = open(src).read()
if step == "06":
    pairs = [("""        const work_unit u = walk_unit(P, &w);
        consumer_mainloop(cc, acc, &u);
""", """        const work_unit ku = {0, 0, 0, 0, P->k_tiles};   /* experiment: the k range first ... */
        consumer_mainloop(cc, acc, &ku);
        const work_unit u = walk_unit(P, &w);             /* ... the coordinates after the mainloop */
""")]
elif step == "08":
    pairs = [("""    while (walk_valid(P, &w)) {
        const work_unit u = walk_unit(P, &w);
""", """    while (walk_valid(P, &w)) {
        const work_unit ku = {0, 0, 0, 0, P->k_tiles};   /* experiment: the k range first ... */
"""), ("""        consumer_mainloop(cc, acc, &u, partner_next);
""", """        consumer_mainloop(cc, acc, &ku, partner_next);
        const work_unit u = walk_unit(P, &w);             /* ... the coordinates after the mainloop */
""")]
else:
    pairs = [("""    while (walk_valid(P, &w)) {
        const work_unit u = walk_unit(P, &w);
""", """    while (walk_valid(P, &w)) {
        const sk_work piece = sk_walk_work(&P->sk.plan, &w);   /* experiment: the k range first ... */
        const work_unit ku = {piece.tile, 0, 0, piece.k_begin, piece.k_end};
"""), ("""        consumer_mainloop<WG_M_BLOCKS, BN, TILE_WGS>(cc, acc, &u, partner_next);
""", """        consumer_mainloop<WG_M_BLOCKS, BN, TILE_WGS>(cc, acc, &ku, partner_next);
        const work_unit u = walk_unit(P, &w);                    /* ... the coordinates after it */
""")]
for a, b in pairs:
    if s.count(a) != 1:
        sys.exit("late_patch: %s changed; the patch no longer applies" % src)
    s = s.replace(a, b)
open(dst, "w").write(s)
