#!/bin/sh
# tests/code_shape.sh [--report | --self-test]   (run from the repository root)
#
# Checks the kernels' shape (README.md, "Writing your own step", rule 4: each
# role takes a small context struct rather than a long parameter list):
#   - stepNN/kernel.cu for every step folder from 05 on (step0*/, step1*/):
#     no function longer than STEP_MAX_LINES (60) lines and no __device__
#     function with more than MAX_PARAMS (5) parameters;
#   - common/*.c, *.h, *.cuh: no function longer than COMMON_MAX_LINES (80).
# A function's length runs from the first line of its signature (a
# `__global__ void __launch_bounds__(...)` or `static __device__
# __forceinline__` line included, the comment above it not) through its
# closing brace, comments and blank lines inside counted.  Its parameters
# are the top-level commas of its parameter list plus one (`(void)` and `()`
# are 0).  A function is __device__ when its signature says __device__ or
# HD (common/hd.h's __host__ __device__); __global__ kernels are listed
# with their parameter counts but not held to the limit.
#
# Only file-scope definitions are functions: a `{` at file scope (extern "C"
# and namespace blocks are transparent) whose declaration ends with the `)`
# of a parameter list.  Not functions: macros (preprocessor lines are read
# as blank), struct/union/enum bodies (`struct __align__(16) {` too),
# initializers (`static const gemm_launch_desc LAUNCH = {`).  Comments and
# string literals are read as blank, so a brace in them counts for nothing.
#
# Output: one row per file (its function count, longest function, most
# parameters of a __device__ function), then every violation as
# FILE:LINE and what it breaks, then one summary line.
# --report prints every function (file, line, name, lines, parameters,
# kind, the limits it breaks) and exits 0.  --self-test runs the parser on
# built-in snippets whose shape is known and fails if it misreads one.
# Exit status: 0 no violation (or --report), 1 a violation (or a failed
# self-test), 2 a file the parser cannot read (unbalanced braces) or a bad
# argument.
set -u
exec python3 - "$@" <<'PY'
import bisect, glob, os, re, sys

STEP_MAX_LINES = int(os.environ.get("STEP_MAX_LINES", "60"))
COMMON_MAX_LINES = int(os.environ.get("COMMON_MAX_LINES", "80"))
MAX_PARAMS = int(os.environ.get("MAX_PARAMS", "5"))
# An identifier before a parenthesis that is not a function's name.
NOT_NAMES = {"__align__", "alignas", "__attribute__", "__launch_bounds__", "__declspec",
             "sizeof", "decltype", "if", "for", "while", "switch", "return"}


class ParseError(Exception):
    pass


def blank_comments_and_strings(src):
    """The source with comments, string and character literals replaced by
    spaces (newlines kept, so offsets and line numbers stay the source's);
    a string keeps its quotes so `extern "C"` stays recognisable."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j])); i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", src[i + 1:j - 1]) + c if j - i >= 2 else src[i:j])
            i = j
        else:
            out.append(c); i += 1
    return "".join(out)


def blank_preprocessor(text):
    """Preprocessor lines (with their backslash continuations) as blanks:
    a macro's body is not a function, and its braces must not count."""
    lines, out, cont = text.split("\n"), [], False
    for line in lines:
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append(" " * len(line))
        else:
            out.append(line)
    return "\n".join(out)


def matching_open(text, close):
    """Index of the ( that the ) at `close` closes."""
    depth = 0
    for i in range(close, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def count_params(plist):
    plist = plist.strip()
    if plist in ("", "void"):
        return 0
    depth, n = 0, 1
    for c in plist:
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            n += 1
    return n


def functions(src):
    """[(name, first line, last line, parameters, kind)] of the file-scope
    function definitions in src."""
    text = blank_preprocessor(blank_comments_and_strings(src))
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    line_of = lambda pos: bisect.bisect_right(newlines, pos - 1) + 1
    found, stack = [], []   # stack: per open brace, (kind, start of decl, name...)
    decl_start = 0          # where the current file-scope declaration begins
    i = 0
    for i, c in enumerate(text):
        depth = sum(1 for s in stack if s[0] != "transparent")
        if c == "{":
            if depth:
                stack.append(("block",))
                continue
            decl = text[decl_start:i]
            d = decl.rstrip()
            if re.search(r"\b(extern\s*\"\s*\"|namespace(\s+\w+)?)\s*$", d):
                stack.append(("transparent",)); decl_start = i + 1
                continue
            fn = None
            if d.endswith(")") and not re.search(r"=", decl.split("(")[0]):
                close = decl_start + len(d) - 1
                open_ = matching_open(text, close)
                m = re.search(r"(\w+)\s*$", text[decl_start:open_]) if open_ >= 0 else None
                if m and m.group(1) not in NOT_NAMES:
                    first = decl_start + len(decl) - len(decl.lstrip())
                    sig = text[first:open_]
                    kind = ("global" if "__global__" in sig else
                            "device" if re.search(r"\b(__device__|HD)\b", sig) else "host")
                    fn = [m.group(1), line_of(first), None, count_params(text[open_ + 1:close]), kind]
            stack.append(("function", fn) if fn else ("other",))
        elif c == "}":
            if not stack:
                raise ParseError("unbalanced } at line %d" % line_of(i))
            top = stack.pop()
            if top[0] == "function":
                top[1][2] = line_of(i)
                found.append(tuple(top[1]))
            if top[0] == "transparent" or not any(s[0] != "transparent" for s in stack):
                decl_start = i + 1
        elif c == ";" and depth == 0:
            decl_start = i + 1
    if stack:
        raise ParseError("%d { never closed" % len(stack))
    return found


def self_test():
    src = r'''
#define MACRO(x) do { if (x) { f(); } } while (0)
#define LONG_MACRO(a, b) \
    static void not_a_function(int a) { \
    }
extern "C" {
typedef struct { int a; } plain_struct;
struct __align__(16) aligned { int b; };
static const desc LAUNCH = {
    "name", sizeof(int), f(1, 2),
};
static int table[3] = {1, 2, 3};
/* comment with braces { and a fake signature f(int a) { */
static __device__ __forceinline__ void multi_line(float (*acc)[8], const ring *sm,
                                                  int a, int b,
                                                  int c, int d)
{
    const char *s = "}";   /* a brace in a string */
    char q = '{';
    if (a) { b++; }
}
}
__global__ void __launch_bounds__(256, 1)
kernel(const __grid_constant__ params p)
{
}
HD static inline int hd_fn(void) { return 0; }
int main(int argc, char **argv)
{
    return 0;
}
struct pair make_pair(int a, int b) { struct pair p = {a, b}; return p; }
'''
    want = [("multi_line", 14, 21, 6, "device"), ("kernel", 23, 26, 1, "global"),
            ("hd_fn", 27, 27, 0, "device"), ("main", 28, 31, 2, "host"),
            ("make_pair", 32, 32, 2, "host")]
    got = functions(src)
    ok = got == want
    print("self-test: %s" % ("ok" if ok else "FAILED"))
    if not ok:
        print("  want %s\n  got  %s" % (want, got))
    bad = False
    try:
        functions("void f(void) {\n")
    except ParseError:
        bad = True
    print("self-test: unbalanced braces %s" % ("refused" if bad else "NOT refused"))
    return 0 if ok and bad else 1


args = sys.argv[1:]
if args and args[0] == "--self-test":
    sys.exit(self_test())
if args not in ([], ["--report"]):
    print("usage: sh tests/code_shape.sh [--report | --self-test]", file=sys.stderr)
    sys.exit(2)
report = args == ["--report"]

files = []   # (path, max lines, parameter limit applies)
for d in sorted(glob.glob("step0*/") + glob.glob("step1*/")):
    m = re.match(r"step(\d+)_", os.path.basename(d.rstrip("/")))
    if m and int(m.group(1)) >= 5 and os.path.isfile(os.path.join(d, "kernel.cu")):
        files.append((os.path.join(d, "kernel.cu"), STEP_MAX_LINES, True))
for ext in ("c", "h", "cuh"):
    for p in sorted(glob.glob("common/*." + ext)):
        files.append((p, COMMON_MAX_LINES, False))
if not files:
    print("code_shape: no step kernel.cu and no common/ here: run it from the repository root")
    sys.exit(2)

violations, rows, status = [], [], 0
print("limits: step kernel.cu %d lines, __device__ %d parameters; common/ %d lines" %
      (STEP_MAX_LINES, MAX_PARAMS, COMMON_MAX_LINES))
print("%-36s %5s  %-32s %s" % ("file", "funcs", "longest (lines)", "most params (__device__)"))
for path, max_lines, params_apply in files:
    try:
        fns = functions(open(path, encoding="utf-8", errors="replace").read())
    except ParseError as e:
        print("%-36s cannot parse: %s" % (path, e))
        status = 2
        continue
    for name, first, last, nparams, kind in fns:
        n = last - first + 1
        broken = []
        if n > max_lines:
            broken.append("%d lines > %d" % (n, max_lines))
        if params_apply and kind == "device" and nparams > MAX_PARAMS:
            broken.append("%d params > %d" % (nparams, MAX_PARAMS))
        rows.append((path, first, name, n, nparams, kind, broken))
        for b in broken:
            violations.append("%s:%d %s: %s" % (path, first, name, b))
    longest = max(fns, key=lambda f: f[2] - f[1], default=None)
    dev = [f for f in fns if f[4] == "device"]
    most = max(dev, key=lambda f: f[3], default=None)
    print("%-36s %5d  %-32s %s" % (
        path, len(fns),
        "%s %d" % (longest[0], longest[2] - longest[1] + 1) if longest else "-",
        ("%s %d" % (most[0], most[3]) if most else "-") + ("" if params_apply else " (no limit)")))

if report:
    print()
    print("%-36s %5s  %-32s %5s %6s  %-6s  %s" % ("file", "line", "function", "lines", "params", "kind", "breaks"))
    for path, first, name, n, nparams, kind, broken in rows:
        print("%-36s %5d  %-32s %5d %6d  %-6s  %s" % (path, first, name, n, nparams, kind, "; ".join(broken)))
else:
    if violations:
        print()
        print("violations:")
        for v in violations:
            print("  " + v)
print()
print("code_shape: %d functions in %d files, %d violations%s" % (
    len(rows), len(files), len(violations), " (--report: not failing)" if report and violations else ""))
if report:
    sys.exit(2 if status == 2 else 0)
sys.exit(status or (1 if violations else 0))
PY
