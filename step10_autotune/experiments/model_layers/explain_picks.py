# model_layers/explain_picks.py: the picks of decode/explain.c (built against a chooser.h) at a list of shapes, for
# judge_variant.py and draw_moved.py.  picks(exe, shapes) -> {(M, N, K): "CONFIG/PLAN"}, with the H200's numbers
# (132 SMs, 60 MiB L2, 4814.3 GB/s: decode/logs/devinfo.txt) unless given others.  No GPU.
import subprocess

H200 = ('132', '62914560', '4814.3')


def picks(exe, shapes, device=H200):
    out = subprocess.run([exe, *device], input=''.join('%d %d %d\n' % s for s in shapes),
                         capture_output=True, text=True, check=True).stdout
    pk, cur = {}, None
    for line in out.splitlines():
        p = line.split()
        if line.startswith('=='): cur = (int(p[1]), int(p[3]), int(p[5]))
        elif '<-' in line: pk[cur] = p[0]
    return pk
