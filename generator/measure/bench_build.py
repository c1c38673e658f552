# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A bench's build folder: one per compiler, the kernels' files under their registry names,
XKCP's opt64 configurations beside them. Apart from generator/measure/bench.py so that the
sweep's programs (sweep_programs.py) and its table (sweep_table.py) build on it without
importing the command that runs them."""

import hashlib
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What the build compiles kernels with (configure.py's DEFAULT_OPT).
OPT = {"gcc": "-O3 -march=native", "clang": "-O3 -march=native", "tcc": "-O2"}
# The plain reference is always gcc -O3, so every compiler's race has the same yardstick.
REF_CC = "gcc"
XKCP_DEFAULT = os.path.join(ROOT, "build", "peers", "package", "src", "libkeccak-64")
XKCP_CACHE = os.path.join(ROOT, "build", "peers", "objects")
# XKCP's opt64 configurations (its lib/low/KeccakP-1600/plain-64bits/<name>/ folders: the
# macros each sets), and the further unroll factors its unrolling macros accept.
XKCP_CONFIGS = {
    "ua": ("KeccakP1600_fullUnrolling",),
    "u6": ("KeccakP1600_unrolling 6",),
    "lcu6": ("KeccakP1600_unrolling 6", "KeccakP1600_useLaneComplementing"),
    "lcua": ("KeccakP1600_fullUnrolling", "KeccakP1600_useLaneComplementing"),
    "lcua_shld": ("KeccakP1600_fullUnrolling", "KeccakP1600_useLaneComplementing",
                  "KeccakP1600_useSHLD"),
}
XKCP_MORE = {f"{lc}u{u}": (f"KeccakP1600_unrolling {u}",)
             + (("KeccakP1600_useLaneComplementing",) if lc else ())
             for u in (2, 3, 4, 12) for lc in ("", "lc")}



class Work:
    """One compiler's build folder: sources written, objects compiled, errors kept."""

    def __init__(self, root, cc):
        self.dir = os.path.join(root, cc)
        self.cc = cc
        os.makedirs(self.dir, exist_ok=True)

    def write(self, files):
        for name, text in files.items():
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)

    def compile(self, src, obj, flags, cc=None):
        cmd = [cc or self.cc, *flags.split(), "-c", src, "-o", os.path.join(self.dir, obj)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=self.dir)
        if r.returncode:
            first = (r.stderr.strip().splitlines() or ["(no message)"])[0]
            raise BuildError(f"{os.path.basename(src)}: {first}")
        return os.path.join(self.dir, obj)

    def link(self, exe, objs, libs=()):
        r = subprocess.run([self.cc, "-o", os.path.join(self.dir, exe), *objs, *libs],
                           capture_output=True, text=True)
        if r.returncode:
            raise BuildError(f"link: {(r.stderr.strip().splitlines() or ['?'])[0]}")
        return os.path.join(self.dir, exe)


class BuildError(Exception):
    pass


def prefixed(files, ident):
    """A kernel's files under its registry name (<ident>.h/.c), as the testsuite names them."""
    out = {}
    for name, text in files.items():
        stem, ext = name.rsplit(".", 1)
        if name == "chacha8.h":
            continue
        if ext == "c":
            text = text.replace(f'#include "{stem}.h"', f'#include "{ident}.h"')
        out[f"{ident}.{ext}"] = text
    return out


def xkcp_objects(work, src_dir, configs):
    """XKCP's opt64 compiled by this compiler in each configuration, its symbols renamed
    xkcp_<tag>_* (objcopy) so all of them link into one bench. Returns (tags, objects)."""
    flags = OPT[work.cc]
    done, objs = [], []
    version = subprocess.run([work.cc, "-v"], capture_output=True, text=True).stderr
    sources = b"".join(open(os.path.join(src_dir, n), "rb").read()
                       for n in sorted(os.listdir(src_dir)) if not n.endswith(".o"))
    for tag, macros in configs.items():
        d = os.path.join(work.dir, f"xkcp_{tag}")
        # Built once per (sources, configuration, compiler, flags): cached beside the build.
        stamp = hashlib.sha256(sources + repr((macros, version, flags)).encode()).hexdigest()
        cached = os.path.join(XKCP_CACHE, f"{work.cc}-{tag}-{stamp[:16]}.o")
        if os.path.isdir(d):
            shutil.rmtree(d)
        shutil.copytree(src_dir, d)
        with open(os.path.join(d, "KeccakP-1600-opt64-config.h"), "w") as f:
            f.write("".join(f"#define {m}\n" for m in macros))
        obj = os.path.join(d, "opt64.o")
        if os.path.exists(cached):
            shutil.copyfile(cached, obj)
            done.append((tag, int("KeccakP1600_useLaneComplementing" in macros)))
            objs.append(obj)
            continue
        r = subprocess.run([work.cc, *flags.split(), "-w", "-I", d, "-c",
                            os.path.join(d, "KeccakP-1600-opt64.c"), "-o", obj],
                           capture_output=True, text=True)
        if r.returncode:
            continue  # a configuration this compiler cannot build (tcc and SHLD's asm)
        syms = subprocess.run(["nm", "-g", "--defined-only", obj], capture_output=True,
                              text=True).stdout.split()
        names = [s for s in syms[2::3] if s.startswith("Keccak")]
        with open(os.path.join(d, "rename"), "w") as f:
            f.write("".join(f"{n} xkcp_{tag}_{n}\n" for n in names))
        subprocess.run(["objcopy", f"--redefine-syms={os.path.join(d, 'rename')}", obj],
                       check=True)
        done.append((tag, int("KeccakP1600_useLaneComplementing" in macros)))
        objs.append(obj)
        os.makedirs(XKCP_CACHE, exist_ok=True)
        shutil.copyfile(obj, cached)
    header = ("/* XKCP opt64 configurations built for this bench: X(tag, lane complementing)."
              " */\n#define RS_XKCP_CONFIGS(X) "
              + " ".join(f"X({t}, {lc})" for t, lc in done) + "\n")
    work.write({"xkcp_configs.h": header})
    return done, objs
