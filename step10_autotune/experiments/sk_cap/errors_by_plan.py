# errors_by_plan.py — how far is each candidate's measured time from the model's prediction?
# Reads tune_sweep.sh's logs (the `explain:` table: busiest k-tiles, k-tile time, predicted us;
# the `tune:` lines: measured ms) and prints, per candidate named (CONFIG/PLAN), each shape's
# error in us and per busiest k-tile, then a count.  No GPU.
#   python3 step10_autotune/experiments/sk_cap/errors_by_plan.py LOG_DIR... -- 64x128/sk_cap 64x64/sk_cap
import glob,re,sys,collections
rows=collections.defaultdict(list)
dirs=sys.argv[1:sys.argv.index('--')]
for f in sorted(f for d in dirs for f in glob.glob(d+'/tune_*.log')):
    ex={}; tu={}
    for l in open(f):
        m=re.match(r'explain:\s+(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)',l)
        if m: ex[m.group(1)]=dict(busiest=int(m.group(6)),kt=float(m.group(8)),pred=float(m.group(10)),tiles=int(m.group(2)))
        m=re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+)',l)
        if m and m.group(1) not in tu: tu[m.group(1)]=float(m.group(2))*1000
    sh=f.split('tune_')[-1][:-4]
    for k in ex:
        if k in tu: rows[k.split('/')[0]+'/'+k.split('/')[1]].append((sh,ex[k]['busiest'],ex[k]['kt'],ex[k]['pred'],tu[k]))
for k in sys.argv[sys.argv.index('--')+1:]:
    print('==',k)
    for sh,b,kt,p,t in rows[k]: print('%-16s busiest %4d kt %.3f pred %6.1f meas %6.1f  err %+5.1f  err/busiest %.4f'%(sh,b,kt,p,t,t-p,(t-p)/b))
    over=[r for r in rows[k] if r[4]-r[3]>1]
    print('%s: %d shapes; over the model by more than 1 us at %d, the most %.1f us' % (k, len(rows[k]), len(over), max([r[4]-r[3] for r in rows[k]] or [0])))
