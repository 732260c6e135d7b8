#!/usr/bin/env python3
"""pair_alone/same_ptx.py OLD.ptx NEW.ptx: is every kernel of OLD's step 10 the same PTX in NEW's?

Since session 23 the kernels take CLUSTER_SIZE as a template parameter (the fourth), so a kernel's name
moves: OLD's <W, BN, T[, A_CUT]> is NEW's <W, BN, T, C[, A_CUT]>, C = 1 for 64x64 and 2 for the others.
Bodies are compared with the kernel's own name, its parameter names and its block labels taken out.
No GPU: same_ptx.sh builds both PTX files."""
import re, subprocess, sys


def kernels(path):
    s = open(path).read()
    starts = [m.start() for m in re.finditer(r'\n(?:\.visible |\.weak |\.func|\.entry|// \.globl)', s)]
    out = {}
    for m in re.finditer(r'\.entry (\S+)\(', s):
        name, start = m.group(1), m.start()
        end = next((x for x in starts if x > start + 10), len(s))
        body = s[start:end].replace(name, 'F')
        body = re.sub(r'\$L__BB\d+_', '$L__BB_', body)
        body = re.sub(r'F_param_\d+', 'P', body)
        body = '\n'.join(l for l in body.splitlines() if not l.strip().startswith('// .globl'))
        out[subprocess.run(['c++filt', name], capture_output=True, text=True).stdout.strip()] = body
    return out


def new_name(d):
    m = re.match(r'void (\w+)<(\d+), (\d+), (\d+)(?:, (\d+))?>\(kernel_params\)', d)
    if not m: return d
    k, w, b, t, a = m.groups()
    c = '1' if (w, b, t) == ('1', '64', '1') else '2'
    return 'void %s<%s>(kernel_params)' % (k, ', '.join([w, b, t, c] + ([a] if a else [])))


old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
same = 0
for d, body in sorted(old.items()):
    n = new_name(d)
    if new.get(n) == body: same += 1
    else: print('differs: %s (new: %s)' % (d, n if n in new else 'missing'))
print('the same PTX: %d of %d kernels of the old build; %d kernels in the new one' % (same, len(old), len(new)))
