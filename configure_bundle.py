"""The bundle edges of build.ninja (called by configure.py): the committed bundles in out/
checked for freshness, compiled, run under every Check suite with each dispatch path forced,
parsed in MSVC mode, benchmarked against the single-target build, and an optional
`ninja bundle` for a configured one.
"""

import os

from generator import bundle, targets

CANONICAL = os.path.join("out", "x86_64")


def _sources(folder):
    """The .c files of a committed bundle (read now; the check edge keeps them current)."""
    root = os.path.dirname(os.path.abspath(__file__))
    return sorted(os.path.join(folder, f) for f in os.listdir(os.path.join(root, folder))
                  if f.endswith(".c"))


def edges(w, cc, gen, check_cflags, check_libs, gen_inputs, warnings, clang, args):
    """`cc`: the compiler of the Check runs (a probe dict); `gen`: its testsuite folder with
    the vector headers. Returns (test logs, bench programs)."""
    logs = []
    if args.bundle:
        configured(w, args, gen_inputs)
    # Freshness: `python3 -m generator check`, which fails naming the command that fixes it.
    check_log = os.path.join("build", "bundle", "check.log")
    w.build([check_log], "bundle_check", implicit=gen_inputs + _all_committed())
    logs.append(check_log)

    # out/x86_64 as a user compiles it: portable flags, every path inside, warnings as errors.
    if targets.host().name != "x86_64" or not cc:
        return logs, []
    objdir = os.path.join("build", "bundle", cc["cc"])
    objs = []
    for src in _sources(CANONICAL):
        o = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
        w.build([o], "cc", [src], variables=[("cc", cc["cc"]),
                                              ("cflags", f"-O2 {warnings[cc['id']]}")])
        objs.append(o)
    chacha_ref = os.path.join(objdir, "chacha_ref.o")
    w.build([chacha_ref], "cc", ["tests/ref/chacha_ref.c"],
            variables=[("cc", cc["cc"]), ("cflags", "-O2")])
    headers = [f for f in _all_committed() if f.startswith(CANONICAL) and f.endswith(".h")]
    common = f"-O1 -I{CANONICAL} -I{gen} -Itests {check_cflags}"
    label = f"-DRS_COMPILER='\"{cc['cc']} bundle\"'"
    suites = {
        "check_sponge": ("tests/check_sponge.c", "sponge_vectors.h", "", []),
        "check_keccak": ("tests/check_keccak.c", "keccak_vectors.h",
                         "-DRS_OUT_F=keccak_f1600 -DRS_OUT_P=keccak_p1600 "
                         "-DRS_OUT_A=keccak_p1600_absorb -DRS_OUT_S=keccak_p1600_squeeze -DRS_OUT_NAME='\"bundle\"' "
                         "-DRS_OUT_CPU='\"\"'", []),
        "check_chacha": ("tests/check_chacha.c", "chacha_vectors.h",
                         "-DRS_OUT_NAME='\"bundle\"' -DRS_OUT_CPU='\"\"'", [chacha_ref]),
    }
    for name, (src, vectors, defines, extra) in suites.items():
        o = os.path.join(objdir, name + ".o")
        w.build([o], "cc", [src], order_only=headers + [os.path.join(gen, vectors)],
                variables=[("cc", cc["cc"]), ("cflags", f"{common} {label} {defines}")])
        exe = os.path.join(objdir, name)
        w.build([exe], "link", [o] + objs + extra,
                variables=[("cc", cc["cc"]), ("ldflags", check_libs)])
        # Every vector with each path forced: the dispatch falls back (one message) where the
        # CPU lacks a path, so the run is still a valid check of the path it lands on.
        for path in targets.BUNDLES["x86_64"].paths:
            log = f"{exe}.{path.name}.log"
            w.build([log], "run_check", [exe],
                    variables=[("check_env", f"ROUNDSMITH_PATH={path.name}")])
            logs.append(log)

    # Everything else end to end (tests/e2e_bundle.py): forced paths with a probe, fallback
    # under qemu-x86_64 and when compiled out, tcc, clang, prefixes, amalgamation, aarch64
    # under qemu-aarch64, the examples.
    e2e_log = os.path.join("build", "bundle", "e2e.log")
    w.build([e2e_log], "e2e_bundle", implicit=["tests/e2e_bundle.py", "tests/bundle_probe.c",
                                              "tests/bundle_two.c", "examples/vendor_sha3.c",
                                              "examples/plotter_f1.c"] + gen_inputs
            + _all_committed())
    logs.append(e2e_log)

    # MSVC mode, syntax only: the dispatch and every scalar/sponge/ChaCha file of the bundles.
    if clang:
        msvc = [f for f in _sources(CANONICAL) + _sources(os.path.join("out", "portable"))
                if "_x" not in os.path.basename(f)]
        msvc.append(os.path.join("out", "aarch64", "rs_dispatch.c"))
        msvc_log = os.path.join("build", "msvc", "msvc_bundle.log")
        w.build([msvc_log], "msvc_syntax", msvc, implicit=["tests/msvc_syntax.py"],
                variables=[("msvc_cc", clang)])
        logs.append(msvc_log)

    return logs, [bench_edges(w, cc, gen_inputs, clang)]


def bench_edges(w, cc, gen_inputs, clang):
    """bench_bundle: per compiler (gcc; clang when installed), the bundle (prefix b<c>_, -O3,
    no -m flags) against the single-target build of this machine (prefix s<c>_, generate
    --cc-id <compiler>, -O3 -march=native), alternated in one process."""
    base = os.path.join("build", "bundle", "bench")
    compilers = [("g", "gcc", cc["cc"])] + ([("c", "clang", clang)] if clang else [])
    objs, headers = [], []
    for tag, cc_id, compiler in compilers:
        folders = {f"b{tag}": ("bundle_gen", f"--target x86_64 --prefix b{tag}_", "-O3"),
                   f"s{tag}": ("generate", f"--target x86_64 --multi x8-avx512 --multi x4-avx2 "
                                           f"--cc-id {cc_id} --prefix s{tag}_",
                               "-O3 -march=native")}
        for name, (rule, genargs, opt) in folders.items():
            folder = os.path.join(base, name)
            files = sorted(bundle.files(targets.BUNDLES["x86_64"], "", "") if rule == "bundle_gen"
                           else _single_names())
            outs = [os.path.join(folder, f) for f in files]
            w.build(outs, rule, implicit=gen_inputs,
                    variables=[("genargs", genargs), ("outdir", folder)])
            headers += [f for f in outs if f.endswith(".h")]
            for f in outs:
                if f.endswith(".c"):
                    o = os.path.join(base, f"{name}_{os.path.basename(f)[:-2]}.o")
                    w.build([o], "cc", [f], order_only=outs,
                            variables=[("cc", compiler), ("cflags", opt)])
                    objs.append(o)
    o = os.path.join(base, "bench_bundle.o")
    w.build([o], "cc", ["tests/bench_bundle.c"], order_only=headers,
            variables=[("cc", cc["cc"]),
                       ("cflags", f"-O2 -I{base} -Itests" + (" -DRS_HAVE_CLANG" if clang else ""))])
    exe = os.path.join(base, "bench_bundle")
    w.build([exe], "link", [o] + objs, variables=[("cc", cc["cc"]), ("ldflags", "")])
    return exe


def _single_names():
    from generator import kernels
    return (kernels.KECCAK_FILES + kernels.SPONGE_FILES + kernels.CHACHA_FILES
            + tuple(f"keccak_p1600_x{n}.{e}" for n in (8, 4) for e in ("h", "c")))


def configured(w, args, gen_inputs):
    """`ninja bundle`: the bundle ./configure.py --bundle TARGET asked for, with its --prefix
    and --amalgamate, in build/bundle/<target>/."""
    folder = os.path.join("build", "bundle", args.bundle)
    genargs = f"--target {args.bundle}" + (f" --prefix {args.prefix}" if args.prefix else "") \
        + (" --amalgamate" if args.amalgamate else "")
    b = targets.BUNDLES.get(args.bundle) or targets.bundle_for(targets.get(args.bundle))
    files = bundle.files(b, args.prefix or "", "")
    if args.amalgamate:
        files = bundle.AMALGAMATION
    outs = [os.path.join(folder, f) for f in sorted(files)]
    w.build(outs, "bundle_gen", implicit=gen_inputs,
            variables=[("genargs", genargs), ("outdir", folder)])
    w.build(["bundle"], "phony", outs)


def _all_committed():
    root = os.path.dirname(os.path.abspath(__file__))
    out = []
    for name in targets.CANONICAL_BUNDLES:
        folder = os.path.join("out", name)
        if os.path.isdir(os.path.join(root, folder)):
            out += sorted(os.path.join(folder, f) for f in os.listdir(os.path.join(root, folder)))
    return out
