# launch_gap.awk: kernel_times.c's CSV -> per kind of kernel, how many ran,
# the median time each ran (end - start), the mean (CUPTI's stamps on the
# H100 come in 256 ns steps, so a median moves only by whole steps; the mean
# of a few hundred launches resolves less) and the median gap the GPU left
# before it (its start - the previous kernel's end: the previous one is the
# harness's L2 flush, or the other side's kernel where no flush runs).
#   awk -F, -f launch_gap.awk k.csv
# Kinds by name: the course's GEMM (pingpong/cooperative/gemm kernels named
# *_kernel in the step), cuBLAS's (nvjet*, *gemm* outside the step), the
# harness's L2 flush and hold kernels, anything else.
function kind(n) {
    if (n ~ /l2_flush/) return "flush"
    if (n ~ /gpu_hold/) return "hold"
    if (n ~ /nvjet|cublas|sm90_xmma|cutlass/) return "cublas"
    if (n ~ /_kernel/) return "step"
    return "other"
}
function median(a, n,    i, j, t) {
    for (i = 2; i <= n; ++i) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; --j) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR == 1 { next }
{
    k = kind($2)
    if (prev_end != "" && k != "hold") {
        n[k]++
        dur[k, n[k]] = ($4 - $3) / 1000.0
        gap[k, n[k]] = ($3 - prev_end) / 1000.0
        if (!(k in name)) name[k] = substr($2, 1, 60)
        grid[k] = $5; cl[k] = $6
    }
    prev_end = $4
}
END {
    printf "%-7s %6s %12s %12s %12s %6s %8s  %s\n", "kind", "count", "run_us_med", "run_us_mean", "gap_us_med", "grid", "cluster", "name"
    for (k in n) {
        sum = 0
        for (i = 1; i <= n[k]; ++i) { d[i] = dur[k, i]; g[i] = gap[k, i]; sum += d[i] }
        printf "%-7s %6d %12.2f %12.3f %12.2f %6d %8d  %s\n", k, n[k], median(d, n[k]), sum / n[k], median(g, n[k]), grid[k], cl[k], name[k]
    }
}
