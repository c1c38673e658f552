# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A counterexample of snp_api.py as a report: the failing call's values, and C that makes
that call on a known state and compares the state and the output with what XKCP's SnP
semantics give (computed here on bytes: generator/model/reference.py's permutation)."""

import z3

from ..model import reference as R
from . import snp_api as S

NAMES = ("offset", "length", "byteCount", "nrounds", "laneOffset", "laneCount", "dataByteLen",
         "data")
# a helper's own proof names its position and length so
ALIASES = {"pos": "offset", "len": "length"}


def values(failure, snp):
    """{name: value} of the failing path, lengths as small as z3 finds them."""
    m = failure.model
    if failure.state is not None:
        for bound in (1 << 8, 1 << 12, 1 << 16):
            small = [z3.ULE(z3.ZeroExt(32, z3.BitVec(x, 32)), bound)
                     for x in ("laneOffset",)] + [z3.ULE(z3.BitVec("dataByteLen", 64), bound)]
            try:
                got = snp.eng.sat(failure.state, *failure.query, *small)
            except Exception:
                got = None
            if got is not None:
                m = got
                break
    vals = {}
    for d in m.decls():
        name = ALIASES.get(d.name(), d.name())
        if d.arity() == 0 and name in NAMES and z3.is_bv_value(m[d]):
            vals[name] = m[d].as_long()
    vals.update(getattr(failure, "case", {}))
    return vals


def pattern(i, salt):
    return (i * 37 + salt * 101 + 11) & 0xFF


def _clip(n, off, length):
    return length if n == 1 else 0 if off >= 200 else min(length, 200 - off)


def _permute(state, rounds):
    lanes = R.keccak_p1600(R.state_from_bytes(bytes(state)), rounds)
    return list(R.state_to_bytes(lanes))


def size_of(n, op, v):
    if op in S.BYTE_OPS:
        return v.get("length", 0)
    if op in S.LANE_OPS:
        return 8 * ((n - 1) * v.get("laneOffset", 0) + min(v["laneCount"], 25))
    return v.get("dataByteLen", 0) if op == "FastLoop_Absorb" else 0


def apply(n, op, rounds, v, states, bufs):
    """XKCP's semantics on bytes: the states and the buffers (by parameter name) after."""
    k, off = v.get("k", 0), v.get("offset", 0)
    s = states[k]
    if op == "Initialize":
        states[:] = [[0] * 200 for _ in range(n)]
    elif op == "Permute":
        r = v.get("nrounds", rounds)
        states[:] = [_permute(x, r) for x in states]
    elif op == "AddByte" and off < 200:
        s[off] ^= v.get("data", 0)
    elif op in ("AddBytes", "OverwriteBytes", "ExtractBytes", "ExtractAndAddBytes"):
        src = bufs.get("input", bufs.get("data"))
        for i in range(_clip(n, off, v.get("length", 0))):
            if op == "AddBytes":
                s[off + i] ^= src[i]
            elif op == "OverwriteBytes":
                s[off + i] = src[i]
            else:
                out = bufs["output" if "output" in bufs else "data"]
                out[i] = s[off + i] ^ (src[i] if op == "ExtractAndAddBytes" else 0)
    elif op == "OverwriteWithZeroes":
        for i in range(min(v.get("byteCount", 0), 200)):
            s[i] = 0
    elif op in S.LANE_OPS:
        _lanes(op, v, states, bufs)
    elif op == "FastLoop_Absorb":
        rate, done, data = 8 * v["laneCount"], 0, bufs["data"]
        while v.get("dataByteLen", 0) - done >= rate:
            for i in range(rate):
                s[i] ^= data[done + i]
            s[:] = _permute(s, rounds)
            done += rate
        return done
    return None


def _lanes(op, v, states, bufs):
    lanes, step = min(v["laneCount"], 25), 8 * v.get("laneOffset", 0)
    for j, s in enumerate(states):
        for i in range(8 * lanes):
            if op == "AddLanes":
                s[i] ^= bufs["data"][j * step + i]
            elif op == "OverwriteLanes":
                s[i] = bufs["data"][j * step + i]
            else:
                out = bufs["output" if "output" in bufs else "data"]
                add = bufs["input"][j * step + i] if op == "ExtractAndAddLanes" else 0
                out[j * step + i] = s[i] ^ add


def _arr(name, bs):
    return f"static const unsigned char {name}[{max(len(bs), 1)}] = {{" + \
        ", ".join(str(b) for b in bs or [0]) + "};"


def c_repro(name, v, params):
    """C calling `name` with the values v on a known state (and buffers of exactly their
    lengths on the heap), then comparing with XKCP's semantics."""
    n, op, rounds = S.classify(name)
    states = [[pattern(i, j) for i in range(200)] for j in range(n)]
    init = [b for s in states for b in s]
    size = size_of(n, op, v)
    bufs = {}
    for p in params:
        if p in ("data", "input", "output") and not (p == "data" and op == "AddByte"):
            bufs[p] = [pattern(i, 9 if p != "output" else 5) for i in range(size)]
    if v.get("alias") == "same":
        bufs["input"] = bufs["output"]
    before = {p: list(b) for p, b in bufs.items()}
    ret = apply(n, op, rounds, v, states, bufs)
    header = "KeccakP-1600-SnP.h" if n == 1 else f"KeccakP-1600-times{n}-SnP.h"
    body = [_arr("init", init), _arr("want", [b for s in states for b in s]),
            f"uint64_t *A = malloc({200 * n});", "size_t i, j;", "if (!A) return 2;",
            f"for (j = 0; j < {n}; j++) for (i = 0; i < 25; i++)",
            f"    A[{n} * i + j] = lane(init + 200 * j + 8 * i);"]
    args = []
    for p in params:
        if p in bufs and not (p == "input" and v.get("alias") == "same"):
            body += [_arr(f"{p}0", before[p]), _arr(f"{p}_want", bufs[p]),
                     f"unsigned char *{p} = malloc({max(size, 1)});",
                     f"if (!{p}) return 2;", f"memcpy({p}, {p}0, {size});"]
        if p in ("state", "states"):
            args.append("A")
        elif p == "input" and v.get("alias") == "same":
            args.append("output")
        elif p in bufs:
            args.append(p)
        else:
            args.append(str(v.get({"instanceIndex": "k"}.get(p, p), 0)) + "u")
    call = f"{name}({', '.join(args)})"
    body.append(f"size_t ret = {call};" if op == "FastLoop_Absorb" else f"{call};")
    body += _compare(n, ret, bufs, v)
    return ("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
            f"#include \"{header}\"\n\nstatic uint64_t lane(const unsigned char *b)\n{{\n"
            "    uint64_t v = 0;\n    for (int k = 7; k >= 0; k--)\n        v = v << 8 | b[k];\n"
            "    return v;\n}\n\nint main(void)\n{\n" +
            "".join(f"    {x}\n" for x in body) + "}\n")


def _compare(n, ret, bufs, v):
    """Statements comparing the state, the buffers and the return value with XKCP's; every
    buffer freed (LeakSanitizer stays quiet), 1 returned where one differs."""
    bad = 'printf("%s differs from the standard\'s (XKCP\'s SnP semantics)\\n", '
    out = ["int bad = 0;", f"for (j = 0; j < {n}; j++) for (i = 0; i < 25; i++)",
           f"    if (!bad && A[{n} * i + j] != lane(want + 200 * j + 8 * i)) {{",
           '        printf("instance %zu, lane %zu: ", j, i);',
           f'        {bad}"the state"); bad = 1;', "    }"]
    mine = [p for p in bufs if not (p == "input" and v.get("alias") == "same")]
    for p in mine:
        out += [f"if (!bad && memcmp({p}, {p}_want, {len(bufs[p])})) {{",
                f'    {bad}"{p}"); bad = 1;', "}"]
    if ret is not None:
        out += [f"if (!bad && ret != {ret}u) {{", f'    {bad}"the return value"); bad = 1;', "}"]
    out += ["if (!bad)", '    puts("the same as the standard\'s (XKCP\'s SnP semantics)");',
            "free(A);"] + [f"free({p});" for p in mine] + ["return bad;"]
    return out


def counterexample_text(name, failure, snp, cnames):
    params = [p for p, _ in snp.eng.params(snp.eng.funcs[name])[0]]
    v = {k: x for k, x in values(failure, snp).items()
         if k in params or k in ("k", "alias") or k == "laneCount" and "laneCount" in params}
    lines = [f"    kind: {failure.kind}; the call's " +
             ", ".join(f"{k} = {x}" for k, x in sorted(v.items()))]
    lines.append("    reproduce (cc -fsanitize=address -I<folder> repro.c <folder>/*.c && ./a.out):")
    lines += ["      " + x for x in c_repro(name, v, params).splitlines()]
    return "\n".join(lines)
