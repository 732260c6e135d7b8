# chooser_variant.py: what the experiments' patches of chooser.h share (sk_scatter/, sk_reread/ and
# sk_streamed_share/variant*.py, each run as "python3 VARIANT.py IN OUT": IN's chooser.h, patched, into OUT).
# A variant script defines patch(s) -> s and ends with main(patch); one variant built on another calls that one's
# patch through load(), in memory.  (variant.sh's variant_patch_py does the same for kernel.cu.)
import importlib.util, os, sys


def edit(s, old, new, who):
    """s with its one place reading `old` replaced by `new`; exits naming WHO if `old` is not there exactly once."""
    if s.count(old) != 1:
        sys.exit("%s: chooser.h changed; the patch no longer applies (%r)" % (who, old))
    return s.replace(old, new)


def sk_price(s, expr, who):
    """s with textbook stream-K's price on the mainloop (sk, sk_cap), CHOOSER_SK_SCATTER, replaced by EXPR"""
    return edit(s, "(mode != SK_MODE_AUTO && e.plan.sk_tiles ? CHOOSER_SK_SCATTER : 1.0);",
                "(mode != SK_MODE_AUTO && e.plan.sk_tiles ? %s : 1.0);   /* experiment */" % expr, who)


def before_estimate(s, code, who):
    """s with CODE (a function the patch calls) put before chooser_estimate_with"""
    fn = "SCHED_FN chooser_estimate chooser_estimate_with("
    return edit(s, fn, code + fn, who)


def load(path):
    """the patch function of the variant script at PATH, relative to this folder (experiments/)"""
    spec = importlib.util.spec_from_file_location("chooser_variant_" + path.replace("/", "_").replace(".", "_"),
                                                  os.path.join(os.path.dirname(os.path.abspath(__file__)), path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.patch


def main(patch):
    """the command line: IN OUT"""
    if len(sys.argv) != 3:
        sys.exit("usage: %s IN OUT" % sys.argv[0])
    s = patch(open(sys.argv[1]).read())
    open(sys.argv[2], "w").write(s)
