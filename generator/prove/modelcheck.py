# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Each intrinsic model against the real instruction, on random operands.

For every entry of intrinsics.SIGNATURES one C program calls the intrinsic on random operands
(every immediate a literal, a few per intrinsic) and prints the result bytes; the model runs on
the same operands; any difference is a wrong model. x86 runs here when this CPU has the
instructions (AVX-512 F/BW/VL, AVX2, SSE2); AArch64 NEON and SHA3 run under qemu-aarch64 when
the cross compiler and qemu are installed. What could not run is said, never passed silently.
"""

import os
import random
import shutil
import subprocess
import tempfile

from . import ctypes_ as T
from . import intrinsics
from .interp import Interp
from .simd_value import Vector, regroup
from .memory import Obj, Pointer

X86_FLAGS = ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx2", "-msse2"]
ARM_FLAGS = ["-march=armv8.2-a+sha3", "-static"]


def is_arm(name):
    return not name.startswith("_mm") and not name.startswith("__builtin") and \
        name not in ("memcpy", "memset", "_rotl64")


def host_has_avx512():
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return all(f in flags for f in ("avx512f", "avx512bw", "avx512vl", "avx2"))


class _Node:
    class coord:
        file, line = "modelcheck", 0


class _Stub:
    load = Interp.load
    store = Interp.store
    big_endian = False

    def __init__(self):
        st = T.Struct("uint32x4x2_t", (("val", T.Arr(T.VECTORS["uint32x4_t"], 2), 0),), 32)
        self.typedefs = {"uint32x4x2_t": st}


def _parse(sig):
    args, res = sig.split("->")
    return [a for a in args.split(",") if a], res


def _cases(name, sig, rng, per=3):
    args, res = _parse(sig)
    out = []
    for _ in range(per):
        vals = []
        for a in args:
            if a[0] == "v":
                vals.append(("v", T.VECTORS[a[1:]], bytes(rng.getrandbits(8) for _ in
                                                         range(T.VECTORS[a[1:]].size))))
            elif a[0] == "i":
                vals.append(("i", int(a[1:]), rng.getrandbits(int(a[1:]))))
            elif a[0] == "k":
                lo, hi = map(int, a[1:].split("-"))
                vals.append(("k", 0, rng.randint(lo, hi)))
            elif a[0] == "m":
                vals.append(("m", int(a[1:]), rng.getrandbits(int(a[1:]))))
            elif a == "p":
                vals.append(("p", 0, bytes(rng.getrandbits(8) for _ in range(64))))
        out.append(vals)
    return out


def _c_literal(b):
    return "{" + ", ".join(str(x) for x in b) + "}"


def _c_case(k, name, sig, vals):
    args, res = _parse(sig)
    lines = ["    {"]
    exprs = []
    store = res == "void"
    for j, (kind, t, v) in enumerate(vals):
        if kind == "v":
            lines.append(f"        static const uint8_t b{j}[{t.size}] = {_c_literal(v)};")
            lines.append(f"        {t.name} a{j}; memcpy(&a{j}, b{j}, {t.size});")
            exprs.append(f"a{j}")
        elif kind == "i":
            ctype = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}[t]
            lines.append(f"        volatile {ctype} a{j} = ({ctype}){v}ULL;")
            exprs.append(f"a{j}")
        elif kind == "k":
            exprs.append(str(v))
        elif kind == "m":
            lines.append(f"        volatile uint{max(t, 8)}_t a{j} = {v}u;")
            exprs.append(f"a{j}")
        else:
            lines.append(f"        static uint8_t b{j}[64] = {_c_literal(v)};")
            exprs.append(f"(void *)b{j}")
    call = f"{name}({', '.join(exprs)})"
    if store:
        lines.append(f"        {call};")
        pj = next(j for j, x in enumerate(vals) if x[0] == "p")
        lines.append(f"        dump(b{pj}, 64);")
    elif res[0] == "v":
        t = T.VECTORS.get(res[1:])
        size = t.size if t else 32
        lines.append(f"        {res[1:]} r = {call}; dump(&r, {size});")
    elif res[0] == "i":
        lines.append(f"        uint64_t r = (uint64_t){call}; dump(&r, 8);")
    elif res[0] == "m":
        lines.append(f"        uint64_t r = (uint64_t){call}; dump(&r, 8);")
    lines.append("    }")
    return "\n".join(lines)


def _program(cases, arm):
    head = ["#include <stdint.h>", "#include <stdio.h>", "#include <string.h>",
            "#include <arm_neon.h>" if arm else "#include <immintrin.h>",
            "static void dump(const void *p, unsigned n)",
            "{ const uint8_t *b = p; unsigned i; for (i = 0; i < n; i++) printf(\"%02x\", b[i]);"
            " printf(\"\\n\"); }",
            "int main(void)", "{"]
    return "\n".join(head + cases + ["    return 0;", "}"]) + "\n"


def _model(name, sig, vals):
    args, res = _parse(sig)
    stub = _Stub()
    margs, buf = [], None
    for kind, t, v in vals:
        if kind == "v":
            n = t.bits // t.ew
            step = t.ew // 8
            margs.append((Vector([int.from_bytes(v[i * step:(i + 1) * step], "little")
                                  for i in range(n)], t.ew), t))
        elif kind in ("i", "k", "m"):
            margs.append((v, T.U64))
        else:
            buf = Obj("buffer", 64)
            for i, x in enumerate(v):
                buf.write(i, 1, x)
            margs.append((Pointer(buf, 0), T.Ptr(T.U8)))
    value, vt = intrinsics.MODELS[name](stub, margs, _Node())
    if res == "void":
        return bytes(buf.read(i, 1) for i in range(64)).hex()
    if res[0] == "v":
        if hasattr(value, "fields"):
            value = Vector([e for v in value.fields["val"] for e in regroup(v, 8).elems], 8)
        return bytes(regroup(value, 8).elems).hex()
    return (value & (2 ** 64 - 1)).to_bytes(8, "little").hex()


def check(arm=False, seed=1, per=3):
    """[(name, 'ok' | 'differs: ...' | 'not run: why')], checking every modelled intrinsic of
    one side (x86 here, or AArch64 under qemu)."""
    rng = random.Random(seed)
    names = [n for n, s in sorted(intrinsics.SIGNATURES.items())
             if s is not None and is_arm(n) == arm]
    if arm:
        cc = shutil.which("aarch64-linux-gnu-gcc")
        qemu = shutil.which("qemu-aarch64") or shutil.which("qemu-aarch64-static")
        if not cc or not qemu:
            return [(n, "not run: needs aarch64-linux-gnu-gcc and qemu-aarch64 (apt-get "
                        "install -y gcc-aarch64-linux-gnu qemu-user)") for n in names]
        flags, runner = ARM_FLAGS, [qemu]
    else:
        # clang: it has every intrinsic and the rotate builtins gcc 12 lacks
        cc = shutil.which("clang")
        if not cc:
            return [(n, "not run: needs clang (apt-get install -y clang)") for n in names]
        if not host_has_avx512():
            return [(n, "not run: this CPU lacks AVX-512 F/BW/VL or AVX2") for n in names]
        flags, runner = X86_FLAGS, []
    plan, blocks = [], []
    for n in names:
        for vals in _cases(n, intrinsics.SIGNATURES[n], rng, per):
            plan.append((n, vals))
            blocks.append(_c_case(len(plan), n, intrinsics.SIGNATURES[n], vals))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "models.c")
        exe = os.path.join(tmp, "models")
        with open(src, "w") as f:
            f.write(_program(blocks, arm))
        b = subprocess.run([cc, "-O1", "-w"] + flags + [src, "-o", exe], capture_output=True,
                           text=True)
        if b.returncode:
            return [(n, f"not run: the check program did not build: "
                        f"{b.stderr.strip().splitlines()[0] if b.stderr else ''}")
                    for n in names]
        r = subprocess.run(runner + [exe], capture_output=True, text=True)
    got = r.stdout.split()
    results = {}
    for (n, vals), real in zip(plan, got):
        want = _model(n, intrinsics.SIGNATURES[n], vals)
        if n in results and results[n] != "ok":
            continue
        results[n] = "ok" if want == real else f"differs: instruction {real}, model {want}"
    for n in names:
        results.setdefault(n, "not run: no output")
    return sorted(results.items())


# The register forms of the instructions x86asm.py models, as the kernel and the rotation
# macros use them: %0 is the output (read too, but for rorx and andn, which only write it),
# %1 and %2 further registers, N a count.
ASM_FORMS = (("xorq", "%1, %0"), ("andq", "%1, %0"), ("orq", "%1, %0"), ("notq", "%0"),
             ("rolq", "$N, %0"), ("rorq", "$N, %0"), ("rorxq", "$N, %1, %0"),
             ("andnq", "%2, %1, %0"))
_WRITE_ONLY = ("rorxq", "andnq")


def check_asm(seed=1, per=8):
    """[(instruction, 'ok' | 'differs: ...' | 'not run: why')]: each x86-64 instruction of
    the asm semantics (x86asm.py) against the CPU on random registers and counts."""
    from . import x86asm
    rng = random.Random(seed)
    names = [op for op, _ in ASM_FORMS]
    cc = shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return [(n, "not run: needs gcc or clang (apt-get install -y gcc)") for n in names]
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    if "bmi2" not in flags or "bmi1" not in flags:
        return [(n, "not run: this CPU lacks BMI1 or BMI2 (andn, rorx)") for n in names]
    plan, lines = [], []
    for op, form in ASM_FORMS:
        for _ in range(per):
            a, b, c = (rng.getrandbits(64) for _ in range(3))
            text = f"{op} {form.replace('N', str(rng.randrange(1, 64)))}"
            out = '"=&r"' if op in _WRITE_ONLY else '"+r"'
            lines.append(f"    {{ uint64_t r = {a}ULL, s = {b}ULL, t = {c}ULL; "
                         f"__asm__(\"{text}\" : {out}(r) : \"r\"(s), \"r\"(t)); "
                         f"printf(\"%016llx\\n\", (unsigned long long)r); }}")
            plan.append((op, text, a, b, c))
    src = "\n".join(["#include <stdint.h>", "#include <stdio.h>", "int main(void)", "{"] +
                    lines + ["    return 0;", "}"]) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path, exe = os.path.join(tmp, "asm.c"), os.path.join(tmp, "asm")
        with open(path, "w") as f:
            f.write(src)
        b = subprocess.run([cc, "-O1", "-w", path, "-o", exe], capture_output=True, text=True)
        if b.returncode:
            return [(n, f"not run: the check program did not build: "
                        f"{b.stderr.strip().splitlines()[0] if b.stderr else ''}")
                    for n in names]
        got = subprocess.run([exe], capture_output=True, text=True).stdout.split()
    results = {}
    for (op, text, a, b, c), real in zip(plan, got):
        m = x86asm.Machine()
        m.r["rax"], m.r["rbx"], m.r["rcx"] = a, b, c
        x86asm.execute(None, m, text.replace("%0", "%%rax").replace("%1", "%%rbx")
                       .replace("%2", "%%rcx"))
        want = f"{m.r['rax']:016x}"
        if results.get(op, "ok") == "ok":
            results[op] = "ok" if want == real else f"differs on {text}: CPU {real}, " \
                                                     f"model {want}"
    for n in names:
        results.setdefault(n, "not run: no output")
    return sorted(results.items())
