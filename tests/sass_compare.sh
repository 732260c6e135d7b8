#!/bin/sh
# tests/sass_compare.sh OLD_BUILD NEW_BUILD [STEPS]
#
# The refactor guard: compares, kernel by kernel, the SASS of two builds of
# the GEMM steps (default STEPS: "step05_tma_wgmma step06_persistent
# step07_pingpong step08_cluster_multicast step09_stream_k"; each is a binary
# OLD_BUILD/<step> and NEW_BUILD/<step>).  A refactor that only moves code
# into context structs and a `const __grid_constant__` parameter struct
# should leave the machine code alone; this says whether it did.
#
# Pairing.  A refactor that changes a kernel's parameters changes its
# mangled name (_Z15pingpong_kernel14CUtensorMap_st... becomes
# _Z15pingpong_kernel11gemm_params), so kernels are paired by base name: the
# demangled name without its parameter list (template arguments are kept:
# they tell instantiations apart).  Demangler: $CUFILT, else the toolkit's
# cu++filt, else c++filt, else a built-in reader of plain _Z<len><name>
# names (the output says which).  Two kernels with one base name on one side
# are told apart by order of appearance (name, name#2, ...).
#
# Output, per kernel (== STEP BASE_NAME, then the two mangled names):
#   stream:   "identical (N instructions, masked)" or "DIFFERS: N -> M" and
#             the first DIFF_LINES (default 80) lines of the diff of the
#             instruction streams with addresses, encodings, register,
#             predicate and uniform-register numbers, constant-bank
#             offsets, hex immediates and .reuse hints masked: what is left
#             is opcodes, modifiers and the control-flow shape.
#   counts:   old and new count of each opcode family that matters to the
#             pipeline (HGMMA UTMALDG UTMASTG SYNCS BAR USETMAXREG STS LDS
#             STG LD LDC LDG LDL).  An opcode family is the opcode at the
#             start of the instruction, after an optional predicate, followed
#             by a modifier dot, a space or the end: LDG.E.128 counts as LDG,
#             LDS is not LD, ULDC is not LDC (it is the uniform datapath's
#             load, a different instruction).
#   regs:     old and new REG, STACK, LOCAL and SHARED from cuobjdump
#             -res-usage, and spill-st / spill-ld: cuobjdump reports no
#             spill counts, so they are the number of STL / LDL instructions
#             in the SASS (a local array would show there too; ptxas -v's
#             spill bytes are a compile-time message, not in the binary).
#             CONSTANT[0] (the parameter space) is printed, not compared: a
#             parameter struct may legitimately change its size.
#   setmaxnreg: the USETMAXREG instructions with their immediates unmasked,
#             "unchanged" or "CHANGED".
#   verdict:  SAME (counts, regs, spills and setmaxnreg all equal) or
#             DIFFERS (and which of them).
# Kernels found on one side only are listed as "old only" / "new only".
# After each step a summary line ("== STEP summary: ..."), at the end one
# "== overall: ..." line.
#
# Exit status: 0 when every kernel is paired and every pair is SAME; 1 when
# a pair DIFFERS or a kernel is on one side only; 2 when nothing differed
# but something could not be compared (a missing binary, no cuobjdump /
# nvdisasm, a bad argument).  The instruction-stream diff alone never fails:
# a refactor may legitimately reorder instructions.
#
# Tools: $CUOBJDUMP and $NVDISASM when set, else $CUDA_HOME/bin, PATH, the
# wheels that `make sass` unpacks under $DEPS (default build/deps; copied to
# a temporary folder when not executable, the files under $DEPS are left
# as they are).
set -u
[ $# -ge 2 ] || { echo "usage: sh tests/sass_compare.sh OLD_BUILD NEW_BUILD [STEPS]" >&2; exit 2; }
exec python3 - "$@" <<'PY'
import atexit, difflib, glob, os, re, shutil, stat, subprocess, sys, tempfile

old_dir, new_dir = sys.argv[1], sys.argv[2]
steps = (sys.argv[3] if len(sys.argv) > 3 else
         "step05_tma_wgmma step06_persistent step07_pingpong "
         "step08_cluster_multicast step09_stream_k").split()
max_lines = int(os.environ.get("DIFF_LINES", "80"))
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
deps = os.environ.get("DEPS", "build/deps")
OPS = "HGMMA UTMALDG UTMASTG SYNCS BAR USETMAXREG STS LDS STG LD LDC LDG LDL".split()
RES = "REG STACK LOCAL SHARED".split()
tmp = tempfile.mkdtemp(prefix="sass_compare.")
atexit.register(shutil.rmtree, tmp, True)

def tool(name, env):
    """(path to run, where it came from): $env when set (and then only it),
    else the toolkit's, PATH's, the wheel's under DEPS."""
    if os.environ.get(env):
        cands = [os.environ[env]]
    else:
        cands = [os.path.join(cuda_home, "bin", name), shutil.which(name) or ""]
        cands += sorted(glob.glob(os.path.join(deps, name + "-*", "**", "bin", name), recursive=True))
    for c in cands:
        if not c or not os.path.isfile(c):
            continue
        if os.access(c, os.X_OK):
            return c, c
        # The wheels are unpacked without the exec bit; run a private copy
        # rather than chmod a tree another checkout may share.
        d = os.path.join(tmp, name)
        shutil.copy(c, d)
        os.chmod(d, os.stat(d).st_mode | stat.S_IXUSR)
        return d, c + " (an executable copy)"
    return None, None

(cuobjdump, cuobjdump_from), (nvdisasm, nvdisasm_from) = tool("cuobjdump", "CUOBJDUMP"), tool("nvdisasm", "NVDISASM")
if not cuobjdump or not nvdisasm:
    print("sass_compare: needs cuobjdump and nvdisasm (set CUOBJDUMP/NVDISASM, or run `make sass STEP=07` once to unpack them into %s)" % deps)
    sys.exit(2)
# cuobjdump -sass runs nvdisasm from PATH.
env = dict(os.environ, PATH=os.path.dirname(nvdisasm) + os.pathsep + os.environ.get("PATH", ""))

cufilt = None
for c in (os.environ.get("CUFILT", ""), os.path.join(cuda_home, "bin", "cu++filt"),
          shutil.which("cu++filt") or "", shutil.which("c++filt") or ""):
    if c and os.access(c, os.X_OK):
        cufilt = c
        break
print("# cuobjdump: %s\n# nvdisasm: %s\n# demangler: %s" % (cuobjdump_from, nvdisasm_from, cufilt or "built-in (_Z<len><name> only)"))

def demangle(names):
    if cufilt and names:
        r = subprocess.run([cufilt], input="\n".join(names) + "\n", capture_output=True, text=True)
        out = r.stdout.splitlines()
        if r.returncode == 0 and len(out) == len(names):
            return out
        print("# %s failed: built-in demangler used" % cufilt)
    res = []
    for n in names:
        m = re.match(r"_Z(\d+)", n)
        res.append(n[m.end():m.end() + int(m.group(1))] if m else n)
    return res

def base_name(d):
    """'void k<1, 2>(gemm_params)' -> 'k<1, 2>': drop the parameter list
    (the parentheses that close the name) and a template's return type."""
    d = d.strip()
    if d.endswith(")"):
        depth = 0
        for i in range(len(d) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(d[i], 0)
            if depth == 0:
                d = d[:i]
                break
    if "<" in d and d.startswith("void "):
        d = d[5:]
    return d.strip()

def mask(ins):
    ins = re.sub(r"\.reuse\b", "", ins)
    ins = re.sub(r"\bUR\d+\b", "URx", ins)
    ins = re.sub(r"\bR\d+\b", "Rx", ins)
    ins = re.sub(r"\bU?P\d\b", "Px", ins)
    ins = re.sub(r"c\[0x[0-9a-f]+\]\[0x[0-9a-f]+\]", "c[..]", ins)
    return re.sub(r"0x[0-9a-f]+", "0x..", ins)

def read_binary(path):
    """{key: kernel} with kernel = mangled name, masked stream, raw
    setmaxnreg lines, res-usage fields."""
    sass = subprocess.run([cuobjdump, "-sass", path], capture_output=True, text=True, env=env)
    res = subprocess.run([cuobjdump, "-res-usage", path], capture_output=True, text=True, env=env)
    if sass.returncode or res.returncode:
        raise RuntimeError((sass.stderr + res.stderr).strip())
    funcs = []  # (mangled, masked instructions, raw setmaxnreg)
    for line in sass.stdout.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            funcs.append((m.group(1), [], []))
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s*(.*?)\s*;?\s*/\*", line)
        if funcs and m:
            ins = m.group(1)
            if re.match(r"^(@!?U?P\w+\s+)?USETMAXREG\b", ins):
                funcs[-1][2].append(re.sub(r"\bU?P\d\b", "Px", ins))
            funcs[-1][1].append(mask(ins))
    usage = {}  # mangled -> [fields of its 1st, 2nd, ... appearance]
    name = None
    for line in res.stdout.splitlines():
        m = re.match(r"\s*Function (\S+):\s*$", line)
        if m:
            name = m.group(1)
            continue
        if name and "REG:" in line:
            usage.setdefault(name, []).append(dict(re.findall(r"([A-Z_]+(?:\[\d+\])?):(\d+)", line)))
            name = None
    bases = demangle([f[0] for f in funcs])
    out, seen_usage = {}, {}
    for (mangled, stream, smr), base in zip(funcs, bases):
        key, n = base_name(base), 2
        while key in out:
            key = "%s#%d" % (base_name(base), n)
            n += 1
        i = seen_usage.get(mangled, 0)
        seen_usage[mangled] = i + 1
        u = usage.get(mangled, [])
        out[key] = dict(mangled=mangled, stream=stream, smr=smr, res=u[i] if i < len(u) else {})
    return out

def op_counts(stream):
    return {op: sum(1 for l in stream if re.match(r"^(@!?U?P\w+\s+)?%s(\.|\s|$)" % op, l))
            for op in OPS}

def res_fields(k):
    r = {f: k["res"].get(f, "?") for f in RES}
    r["spill-st"] = sum(1 for l in k["stream"] if re.match(r"^(@!?U?P\w+\s+)?STL(\.|\s|$)", l))
    r["spill-ld"] = sum(1 for l in k["stream"] if re.match(r"^(@!?U?P\w+\s+)?LDL(\.|\s|$)", l))
    return r

def fmt(d):
    return " ".join("%s=%s" % (k, v) for k, v in d.items())

def changes(a, b):
    return ", ".join("%s %s->%s" % (k, a[k], b[k]) for k in a if a[k] != b[k])

status = 0          # 0 all SAME, 1 a difference, 2 something not compared
n_same = n_diff = n_unpaired = 0
step_lines = []
for step in steps:
    paths = [os.path.join(old_dir, step), os.path.join(new_dir, step)]
    missing = [p for p in paths if not os.access(p, os.X_OK)]
    if missing:
        line = "== %s summary: NOT COMPARED (missing %s)" % (step, " ".join(missing))
        print(line); step_lines.append(line)
        status = status or 2
        continue
    try:
        old, new = read_binary(paths[0]), read_binary(paths[1])
    except (RuntimeError, subprocess.CalledProcessError) as e:
        line = "== %s summary: NOT COMPARED (cuobjdump: %s)" % (step, e)
        print(line); step_lines.append(line)
        status = status or 2
        continue
    same, differ, stream_differ = [], [], []
    for key in sorted(set(old) & set(new)):
        a, b = old[key], new[key]
        print("== %s %s" % (step, key))
        print("   old: %s" % a["mangled"])
        print("   new: %s" % b["mangled"])
        sa, sb = a["stream"], b["stream"]
        if sa == sb:
            print("   stream: identical (%d instructions, masked)" % len(sa))
        else:
            stream_differ.append(key)
            print("   stream: DIFFERS: %d -> %d instructions (masked)" % (len(sa), len(sb)))
            d = [l for l in difflib.unified_diff(sa, sb, lineterm="", n=0)
                 if l[:1] in "+-" and l[:3] not in ("+++", "---")]
            for l in d[:max_lines]:
                print("     " + l)
            if len(d) > max_lines:
                print("     ... %d more diff lines" % (len(d) - max_lines))
        ca, cb = op_counts(sa), op_counts(sb)
        ra, rb = res_fields(a), res_fields(b)
        print("   counts old: " + fmt(ca))
        print("   counts new: " + fmt(cb))
        print("   regs   old: %s (CONSTANT[0]=%s)" % (fmt(ra), a["res"].get("CONSTANT[0]", "?")))
        print("   regs   new: %s (CONSTANT[0]=%s)" % (fmt(rb), b["res"].get("CONSTANT[0]", "?")))
        bad = []
        if ca != cb:
            bad.append("counts: " + changes(ca, cb))
        if any(ra[f] != rb[f] for f in RES):
            bad.append("regs: " + changes({f: ra[f] for f in RES}, {f: rb[f] for f in RES}))
        if (ra["spill-st"], ra["spill-ld"]) != (rb["spill-st"], rb["spill-ld"]):
            bad.append("spills: " + changes({f: ra[f] for f in ("spill-st", "spill-ld")},
                                            {f: rb[f] for f in ("spill-st", "spill-ld")}))
        if a["smr"] or b["smr"]:
            ok = a["smr"] == b["smr"]
            print("   setmaxnreg %s: %s" % ("unchanged" if ok else "CHANGED",
                                          "; ".join(b["smr"]) if ok else
                                          "old " + ("; ".join(a["smr"]) or "none") +
                                          " | new " + ("; ".join(b["smr"]) or "none")))
            if not ok:
                bad.append("setmaxnreg")
        if bad:
            differ.append(key)
            print("   verdict: DIFFERS (%s)" % "; ".join(bad))
        else:
            same.append(key)
            print("   verdict: SAME")
    only_old = sorted(set(old) - set(new))
    only_new = sorted(set(new) - set(old))
    for key in only_old:
        print("== %s %s: old only (%s)" % (step, key, old[key]["mangled"]))
    for key in only_new:
        print("== %s %s: new only (%s)" % (step, key, new[key]["mangled"]))
    line = "== %s summary: %d paired, %d SAME, %d DIFFER%s; %d old only%s, %d new only%s; stream differs in %d%s" % (
        step, len(same) + len(differ), len(same), len(differ),
        " (" + ", ".join(differ) + ")" if differ else "",
        len(only_old), " (" + ", ".join(only_old) + ")" if only_old else "",
        len(only_new), " (" + ", ".join(only_new) + ")" if only_new else "",
        len(stream_differ), " (" + ", ".join(stream_differ) + ")" if stream_differ else "")
    print(line); step_lines.append(line)
    n_same += len(same); n_diff += len(differ); n_unpaired += len(only_old) + len(only_new)
    if differ or only_old or only_new:
        status = 1
print()
for l in step_lines:
    print(l)
print("== overall: %d steps, %d pairs SAME, %d DIFFER, %d unpaired, %d steps not compared -> exit %d" % (
    len(steps), n_same, n_diff, n_unpaired, sum("NOT COMPARED" in l for l in step_lines), status))
sys.exit(status)
PY
