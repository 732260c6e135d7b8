# compare.py — the guesses of README.md against the rows: run from the repository root, python3 plots/results/session_2026-11-29a/compare.py
import csv, statistics as st, collections
G="4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096 4096x4096x14336 8192x14336x4096 8192x4096x14336 1024x1024x14336 2048x2048x2048 512x4096x4096".split()
def load(p):
    return list(csv.DictReader(open(p)))
h200=load('plots/results/NVIDIA_H200.csv'); h100=load('plots/results/NVIDIA_H100_80GB_HBM3.csv')
s25=load('plots/results/session_2026-11-28i/bench_peers_h200_7b77c04.csv')
def key(r): return f"{r['m']}x{r['n']}x{r['k']}"
def head(r): return r['repeat']!='' and r.get('chooser','') in ('','default','model')
def latest_set(rows, impl, step, shape, rev=None, exclude_rev=None):
    sel=[r for r in rows if (r.get('impl') or 'course')==impl and r['step']==step and key(r)==shape and head(r) and (rev is None or r['git_rev']==rev) and (exclude_rev is None or r['git_rev']!=exclude_rev)]
    if not sel: return None
    # latest set: from the last repeat 1
    idx=max(i for i,r in enumerate(sel) if r['repeat']=='1')
    return st.median(float(r['ratio_to_ref']) for r in sel[idx:])
NEW='eb90c92'
print("step shape new old_h200 h100 s25peer")
for impl in ('course','cutlass'):
  for s in ['04','05','06','07','08','09']:
    if impl=='cutlass' and s=='04': continue
    for g in G:
        new=latest_set(h200,impl,s,g,rev=NEW)
        old=latest_set(h200,impl,s,g,exclude_rev=NEW)
        h1=latest_set(h100,impl,s,g)
        p25=latest_set(s25,impl,s,g) if impl=='cutlass' else None
        f=lambda v: '-' if v is None else f"{v:.3f}"
        flag=''
        if old is not None and abs(new-old)>0.02: flag+=' OLD>0.02'
        if old is None and h1 is not None and abs(new-h1)>0.04 and g!='1024x1024x14336': flag+=' H100>0.04'
        if p25 is not None and abs(new-p25)>0.03: flag+=' S25>0.03'
        print(impl[:2],s,g,f(new),f(old),f(h1),f(p25),flag)
print("\nstep 10 (7b77c04) vs best peer (eb90c92), H200")
n=0
for g in G:
    s10=latest_set(h200,'course','10',g,rev='7b77c04')   # session 25's record, the one this session compared
    best=max(((latest_set(h200,'cutlass',s,g,rev=NEW) or 0),s) for s in ['05','06','07','08','09'])
    ok = s10>=best[0]; n+=ok
    print(g, f"{s10:.3f}", f"step {best[1]} {best[0]:.3f}", "yes" if ok else "NO", f"{s10-best[0]:+.3f}")
print(n, "of", len(G))
print("\nstep 07 vs 08 on H200 (eb90c92)")
for g in G:
    a=latest_set(h200,'course','07',g,rev=NEW); b=latest_set(h200,'course','08',g,rev=NEW)
    c7=latest_set(h200,'cutlass','08',g,rev=NEW)
    print(g, f"{a:.3f} {b:.3f} {b-a:+.3f}  cutlass08 {c7:.3f} {'ahead' if b>c7 else 'BEHIND'} {b-c7:+.3f}")
print("\nthe third call: step 10 and the counterparts in one bench (peers_vs_step10_310dedd.csv)")
one=load('plots/results/session_2026-11-29a/peers_vs_step10_310dedd.csv')
def runs(impl,s,g): return [r for r in one if (r.get('impl') or 'course')==impl and r['step']==s and key(r)==g]
n=0
for g in G:
    t=runs('course','10',g); tr=[float(r['ratio_to_ref']) for r in t]
    best=max((st.median(float(r['ratio_to_ref']) for r in runs('cutlass',s,g)),s) for s in ['05','06','07','08','09'])
    b=runs('cutlass',best[1],g); br=[float(r['ratio_to_ref']) for r in b]
    m=st.median(tr); ok=m>=best[0]; n+=ok
    print(f"{g} {t[0]['config']}/{t[0]['mode']} step10 {m:.4f} [{min(tr):.3f}-{max(tr):.3f}] ms {min(float(r['ms_median']) for r in t):.4f}-{max(float(r['ms_median']) for r in t):.4f} MHz {','.join(r['sm_clock_mhz'] for r in t)}"
          f" | peer {best[1]} {best[0]:.4f} [{min(br):.3f}-{max(br):.3f}] ms {min(float(r['ms_median']) for r in b):.4f}-{max(float(r['ms_median']) for r in b):.4f} MHz {','.join(r['sm_clock_mhz'] for r in b)} | {'yes' if ok else 'NO'} {m-best[0]:+.4f}")
print(n, "of", len(G))
