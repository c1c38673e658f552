# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator prove`: the report (a line per kernel) and, for a kernel that differs
from the standard, a concrete input, where it differs, and C that shows it on the real build."""

import os
import random
import re
import sys
import tempfile
import time

from ..errors import UsageError
from . import anf, driver, spec_chacha, spec_keccak


def concrete_keccak(res):
    """A random state (and the expected lanes) for the failing round count."""
    case = res.counterexample["case"]
    rng = random.Random(202)
    state = [rng.getrandbits(64) for _ in range(25)]
    rounds = case.get("rounds", 24)
    want = spec_keccak.permute(list(state), rounds) if 1 <= rounds <= 24 else list(state)
    return state, rounds, want


def c_repro(res, folder):
    """A few lines of C: the input, the call through the folder's public API, the check."""
    fam = res.counterexample["family"]
    if fam == "keccak":
        state, rounds, want = concrete_keccak(res)
        n = res.counterexample["n"]
        kind = res.counterexample["kind"]
        # The function that failed, through its own file's header (a kernel by its ISA name,
        # a dispatch wrapper, generate's plain names); a Keccak-f form as its Keccak-p form.
        fn = res.function.replace("keccak_f1600", "keccak_p1600")
        hdr = res.file[:-2] + ".h"
        lanes = ", ".join(f"0x{x:016x}ULL" for x in state)
        expect = ", ".join(f"0x{x:016x}ULL" for x in want)
        if n == 1:
            body = (f"    {fn}(s, {rounds}u);\n"
                    "    for (i = 0; i < 25; i++) bad += s[i] != want[i];\n")
            decl = "    uint64_t s[25] = { %s };\n" % lanes
        elif kind in ("sfN", "spN"):
            # n separate states, one after another
            sts = _instances(state, n)
            wants = [spec_keccak.permute(list(x), rounds) if 1 <= rounds <= 24 else list(x)
                     for x in sts]
            rows = lambda xs: ", ".join("{ %s }" % ", ".join(f"0x{w:016x}ULL" for w in x)
                                        for x in xs)
            body = (f"    {fn}(m, {rounds}u);\n"
                    f"    for (j = 0; j < {n}; j++) for (i = 0; i < 25; i++) "
                    "bad += m[j][i] != wantn[j][i];\n")
            decl = (f"    uint64_t m[{n}][25] = {{ {rows(sts)} }};\n"
                    f"    static const uint64_t wantn[{n}][25] = {{ {rows(wants)} }};\n"
                    "    unsigned j;\n")
        else:
            # every instance its own state: a lane moved between instances must show
            sts = _instances(state, n)
            wants = [spec_keccak.permute(list(x), rounds) if 1 <= rounds <= 24 else list(x)
                     for x in sts]
            body = (f"    {fn}(m, {rounds}u);\n"
                    f"    for (i = 0; i < 25; i++) for (j = 0; j < {n}; j++) "
                    "bad += m[i][j] != wantn[i][j];\n")
            decl = (f"    uint64_t m[25][{n}] = {{ {_rows(sts, n)} }};\n"
                    f"    static const uint64_t wantn[25][{n}] = {{ {_rows(wants, n)} }};\n"
                    "    unsigned j;\n")
        note = ""
        if kind in ("absorb", "absorbN"):
            return _absorb_repro(res, state, n, fn, hdr)
        if kind == "startN":
            return _start_repro(res, n, fn, hdr)
        if kind == "extractN":
            return _extract_repro(res, state, n, fn, hdr)
        return ("#include <stdio.h>\n#include <stdint.h>\n"
                f"#include \"{hdr}\"\n#include \"rs_dispatch.h\"\n"
                "int main(void)\n{\n" + decl +
                "    static const uint64_t want[25] = { %s };\n" % expect +
                "    unsigned i, bad = 0;\n" + note + body +
                "    printf(\"%u lanes differ from FIPS 202\\n\", bad);\n"
                "    return bad != 0;\n}\n")
    case = res.counterexample["case"]
    # a helper takes its round count as an argument, and serves its own block count
    rounds = case.get("rounds") or int(res.function.split("_")[1][6:])
    rng = random.Random(8439)
    key = bytes(rng.getrandbits(8) for _ in range(32))
    nonce = bytes(rng.getrandbits(8) for _ in range(8))
    pos = (1 << 32) - 2
    n = case.get("n") or (res.counterexample["n"] if res.counterexample["kind"] == "chunk" else 1)
    words = spec_chacha.le_words(spec_chacha.SIGMA) + spec_chacha.le_words(key)
    ks = b""
    for j in range(n):
        ctr = pos + j
        w = words + [ctr & 0xFFFFFFFF, ctr >> 32 & 0xFFFFFFFF] + spec_chacha.le_words(nonce)
        ks += bytes(spec_chacha.serialize(spec_chacha.block(w, rounds)))
    arr = lambda b: ", ".join(f"0x{x:02x}" for x in b)
    return ("#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n"
            "#include \"chacha.h\"\n") + (
            "int main(void)\n{\n"
            f"    static const uint8_t key[32] = {{ {arr(key)} }};\n"
            f"    static const uint8_t iv[8] = {{ {arr(nonce)} }};\n"
            f"    static const uint8_t want[{64 * n}] = {{ {arr(ks)} }};\n"
            f"    uint8_t got[{64 * n}];\n"
            f"    struct chacha{rounds}_ctx x;\n"
            f"    chacha{rounds}_keysetup(&x, key, 256, iv);\n"
            f"    chacha{rounds}_get_keystream(&x, {pos}ULL, {n}, got);\n"
            f"    printf(\"%s\\n\", memcmp(got, want, sizeof want) ? \"differs from RFC 8439\" : "
            "\"matches\");\n"
            "    return memcmp(got, want, sizeof want) != 0;\n}\n")


def _instances(state, n):
    """n distinct states from one: instance j's lanes are the given ones rotated by 7j bits
    and XORed with j."""
    return [[anf.rotl(x, 7 * j, 64) ^ j for x in state] for j in range(n)]


def _rows(states, n):
    """states[j][i] as the rows m[i][j] of a C initializer."""
    return ", ".join("{ %s }" % ", ".join(f"0x{states[j][i]:016x}ULL" for j in range(n))
                     for i in range(25))


def _absorb_repro(res, state, n, fn, hdr):
    """The block loop: one block of rate lanes into every instance, then the permutation."""
    case = res.counterexample["case"]
    rounds, lanes = case.get("rounds", 24), case.get("lanes", 17)
    lanes = lanes if 1 <= lanes <= 25 else 17
    rng = random.Random(185)
    msg = [rng.getrandbits(64) for _ in range(lanes)]
    want = list(state)
    for k in range(lanes):
        want[k] ^= msg[k]
    want = spec_keccak.permute(want, rounds) if 1 <= rounds <= 24 else want
    data = b"".join(m.to_bytes(8, "little") for m in msg)
    arr = ", ".join(f"0x{b:02x}" for b in data)
    lanes_c = ", ".join(f"0x{x:016x}ULL" for x in state)
    want_c = ", ".join(f"0x{x:016x}ULL" for x in want)
    if n == 1:
        call = (f"    {fn}(s, {rounds}u, {lanes}u, data, sizeof data);\n"
                "    for (i = 0; i < 25; i++) bad += s[i] != want[i];\n")
        decl = ""
    else:
        # every instance its own state and block: a lane moved between instances must show
        sts = _instances(state, n)
        msgs = [[rng.getrandbits(64) for _ in range(lanes)] for _ in range(n)]
        wants = []
        for x, mj in zip(sts, msgs):
            w = list(x)
            for k in range(lanes):
                w[k] ^= mj[k]
            wants.append(spec_keccak.permute(w, rounds) if 1 <= rounds <= 24 else w)
        blocks = ", ".join("{ %s }" % ", ".join(f"0x{b:02x}" for m in mj
                                                 for b in m.to_bytes(8, "little"))
                           for mj in msgs)
        call = (f"    for (j = 0; j < {n}; j++) in[j] = datan[j];\n"
                f"    {fn}(m, in, 1, {lanes}u, {rounds}u);\n"
                f"    for (i = 0; i < 25; i++) for (j = 0; j < {n}; j++) "
                "bad += m[i][j] != wantn[i][j];\n")
        decl = (f"    uint64_t m[25][{n}] = {{ {_rows(sts, n)} }};\n"
                f"    static const uint64_t wantn[25][{n}] = {{ {_rows(wants, n)} }};\n"
                f"    static const uint8_t datan[{n}][{8 * lanes}] = {{ {blocks} }};\n"
                f"    const uint8_t *in[{n}];\n    unsigned j;\n")
    return ("#include <stdio.h>\n#include <stdint.h>\n"
            f"#include \"{hdr}\"\n"
            "int main(void)\n{\n"
            "    uint64_t s[25] = { %s };\n" % lanes_c +
            "    static const uint64_t want[25] = { %s };\n" % want_c +
            "    static const uint8_t data[%d] = { %s };\n" % (len(data), arr) +
            decl + "    unsigned i, bad = 0;\n" + call +
            "    printf(\"%u lanes differ from FIPS 202\\n\", bad);\n"
            "    return bad != 0;\n}\n")


def _start_repro(res, n, fn, hdr):
    """A fresh sponge's first write: each instance's message of the failing length (its own
    bytes), the expected lanes the standard's padded block."""
    case = res.counterexample["case"]
    lanes, length, domain = case["lanes"], case["length"], case["domain"]
    rng = random.Random(202)
    msgs = [bytes(rng.getrandbits(8) for _ in range(length)) for _ in range(n)]
    wants = []
    for j in range(n):
        block = bytearray(200)
        block[:length] = msgs[j]
        if domain and 1 <= lanes <= 25 and length < 8 * lanes:
            block[length] ^= domain
            block[8 * lanes - 1] ^= 0x80
        wants.append([int.from_bytes(block[8 * i:8 * i + 8], "little") for i in range(25)])
    start = [[0x5A5A5A5A5A5A5A5A ^ i ^ j << 8 for i in range(25)] for j in range(n)]
    if not (1 <= lanes <= 25 and length < 8 * lanes):
        wants = start
    datan = ", ".join("{ %s }" % ", ".join(f"0x{b:02x}" for b in (m or b"\0")) for m in msgs)
    return ("#include <stdio.h>\n#include <stdint.h>\n"
            f"#include \"{hdr}\"\n"
            "int main(void)\n{\n"
            f"    uint64_t m[25][{n}] = {{ {_rows(start, n)} }};\n"
            f"    static const uint64_t wantn[25][{n}] = {{ {_rows(wants, n)} }};\n"
            f"    static const uint8_t datan[{n}][{max(length, 1)}] = {{ {datan} }};\n"
            f"    const uint8_t *in[{n}];\n"
            "    unsigned i, j, bad = 0;\n"
            f"    for (j = 0; j < {n}; j++) in[j] = datan[j];\n"
            f"    {fn}(m, in, {length}u, {lanes}u, 0x{domain:02x});\n"
            f"    for (i = 0; i < 25; i++) for (j = 0; j < {n}; j++) "
            "bad += m[i][j] != wantn[i][j];\n"
            "    printf(\"%u lanes differ from FIPS 202\\n\", bad);\n"
            "    return bad != 0;\n}\n")


def _extract_repro(res, state, n, fn, hdr):
    """Whole lanes out of every instance: each instance its own state, each output its
    expected bytes."""
    lanes = min(res.counterexample["case"]["lanes"], 25)
    sts = _instances(state, n)
    outs = ", ".join("{ %s }" % ", ".join(f"0x{b:02x}" for i in range(lanes)
                                          for b in sts[j][i].to_bytes(8, "little"))
                     if lanes else "{ 0 }" for j in range(n))
    return ("#include <stdio.h>\n#include <stdint.h>\n#include <string.h>\n"
            f"#include \"{hdr}\"\n"
            "int main(void)\n{\n"
            f"    static const uint64_t m[25][{n}] = {{ {_rows(sts, n)} }};\n"
            f"    static const uint8_t wantn[{n}][{max(8 * lanes, 1)}] = {{ {outs} }};\n"
            f"    static uint8_t got[{n}][{max(8 * lanes, 1)}];\n"
            f"    uint8_t *out[{n}];\n"
            "    unsigned j, bad = 0;\n"
            f"    for (j = 0; j < {n}; j++) out[j] = got[j];\n"
            f"    {fn}(m, out, {lanes}u);\n"
            f"    for (j = 0; j < {n}; j++) bad += memcmp(got[j], wantn[j], {8 * lanes}) != 0;\n"
            "    printf(\"%u outputs differ from FIPS 202\\n\", bad);\n"
            "    return bad != 0;\n}\n")


def _written(tmp, folders):
    """Each {key: {name: text}} written to its own folder under tmp: {its path: key}."""
    paths = {}
    for i, (key, files) in enumerate(folders.items()):
        where = os.path.join(tmp, str(i))
        os.makedirs(where)
        for name, text in files.items():
            with open(os.path.join(where, name), "w") as f:
                f.write(text)
        paths[where] = key
    return paths


def prove_files(folders, jobs=2, out=sys.stdout, **options):
    """Prove files not yet written ({folder: {name: text}}) from a temporary copy, reported
    under the folder names they are for (options: run's); True when every kernel proved."""
    with tempfile.TemporaryDirectory(prefix="roundsmith-prove-") as tmp:
        shown = _written(tmp, folders)
        code, _ = run(list(shown), jobs, out=out, shown=shown, **options)
    return code == 0


def prove_variants(named, jobs=2, out=sys.stdout):
    """{label: files} (each a variant's generated folder, not written): each proven from a
    temporary copy, a line per label; returns {label: proved / counterexample / not
    supported}, the worst verdict of its kernels."""
    verdicts = {}
    with tempfile.TemporaryDirectory(prefix="roundsmith-prove-") as tmp:
        for where, label in _written(tmp, named).items():
            t0 = time.time()
            _, results = driver.prove_folder(where, jobs)
            bad = [r for r in results if r.status != "proved"]
            verdicts[label] = bad[0].status if bad else "proved" if results else \
                "not supported"
            print(f"{verdicts[label]:14} {label}: {len(results) - len(bad)} of {len(results)} "
                  f"kernels proved ({time.time() - t0:.0f} s)"
                  + "".join(f"; {r.function}: {r.detail}" for r in bad[:2]), file=out,
                  flush=True)
    return verdicts


def run(folders, jobs=2, quick=False, only=None, out=sys.stdout, repro_dir=None,
        configs=None, shown=None):
    """Prove every folder; print a line per kernel; return (exit code, results). shown: the
    name a folder is reported under, when not its path."""
    shown = shown or {}
    for f in folders:
        if not os.path.isdir(f):
            raise UsageError(f"{f}: not a folder")
        kernels = [os.path.join(f, n) for n in sorted(os.listdir(f))
                   if driver.is_kernel_file(os.path.join(f, n))]
        if not kernels:
            raise UsageError(f"{f}: no kernel sources (keccak_p1600*.c, chacha*.c) in it")
        if driver.folder_arch(f, kernels) == "wasm32":
            raise UsageError(f"{f}: generated for wasm32, which the prover has no "
                             "configuration for (no models of the SIMD128 intrinsics)")
    everything = []
    for folder in folders:
        t0 = time.time()
        arch, results = driver.prove_folder(folder, jobs, quick, only, configs=configs)
        name = shown.get(folder, folder)
        for r in results:
            line = (f"{r.status:14} {os.path.join(name, r.file)}: {r.function} "
                    f"[{', '.join(r.configs)}] {r.cases} cases, {r.seconds:.1f} s")
            if r.status == driver.HIDDEN:
                line = f"{r.status:14} {os.path.join(name, r.file)}: {r.function}"
            if r.detail:
                line += f": {r.detail}"
            print(line, file=out, flush=True)
            if r.status == "counterexample":
                print(_counterexample_text(r, folder, repro_dir, name), file=out, flush=True)
        everything += results
        n_ok = sum(r.status == "proved" for r in results)
        print(f"{name}: {n_ok} of {len(results)} kernels proved ({arch} folder, "
              f"{time.time() - t0:.0f} s)", file=out, flush=True)
    code = 0 if everything and all(r.status == "proved" for r in everything) else 1
    return code, everything


def _counterexample_text(r, folder, repro_dir, name):
    text = []
    ce = r.counterexample
    if ce["family"] == "keccak":
        state, rounds, want = concrete_keccak(r)
        text.append(f"    input: rounds = {rounds}, state lanes "
                    + " ".join(f"{x:016x}" for x in state))
        text.append("    expected (FIPS 202): " + " ".join(f"{x:016x}" for x in want))
    if ce.get("where"):
        text.append(f"    first difference: {ce['where']}")
    src = c_repro(r, folder)
    # a dispatch wrapper's counterexample is on one path: the run must be forced onto it
    env = ""
    if "path" in ce["case"]:
        env = f"ROUNDSMITH_PATH={driver.path_names(folder).get(ce['case']['path'], '?')} "
    elif ce["family"] == "chacha" and ce["kind"] in ("level", "chunk"):
        # the public call reaches a level's code on that level's path
        level = re.match(r"rs_chacha\d*_([a-z0-9]+)", r.function).group(1)
        if level in driver.path_names(folder).values():
            env = f"ROUNDSMITH_PATH={level} "
    if repro_dir:
        os.makedirs(repro_dir, exist_ok=True)
        path = os.path.join(repro_dir, f"repro_{r.function}.c")
        with open(path, "w") as fh:
            fh.write(src)
        text.append(f"    reproduce: cc -I{name} {path} {name}/*.c && {env}./a.out")
    else:
        text.append(f"    reproduce (cc -I<folder> repro.c <folder>/*.c && {env}./a.out):")
        text += ["      " + l for l in src.splitlines()]
    return "\n".join(text)
