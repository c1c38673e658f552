# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The SMT side (z3): small words that do not normalise, proven equal to what the
specification names, such as a block counter's high word computed with a compare and a carry."""

from . import anf


def to_z3(v, env, memo):
    import z3
    if isinstance(v, int):
        raise TypeError("to_z3 needs a width for an int")
    W = v.W
    out = z3.BitVecVal(0, W)
    for m, c in v.t.items():
        x = z3.BitVecVal(anf.ones(W), W)
        for a in m:
            bid, r = a >> 6, a & 63
            b = base_z3(bid, env, memo)
            x = x & (z3.RotateLeft(b, r) if r else b)
        out = out ^ (x & z3.BitVecVal(c, W))
    return out


def _arg(a, W, env, memo):
    import z3
    if isinstance(a, anf.Sym):
        return to_z3(a, env, memo)
    return z3.BitVecVal(a & anf.ones(W), W)


def _fit(x, W):
    import z3
    n = x.size()
    if n == W:
        return x
    if n > W:
        return z3.Extract(W - 1, 0, x)
    return z3.ZeroExt(W - n, x)


def base_z3(bid, env, memo):
    import z3
    got = memo.get(bid)
    if got is not None:
        return got
    kind, W, payload = anf.BASES.kind[bid], anf.BASES.width[bid], anf.BASES.payload[bid]
    if kind == "var":
        val = env[payload] if payload in env else z3.BitVec(payload, W)
    elif kind == "add":
        items, const = payload
        val = z3.BitVecVal(const, W)
        for _, x in items:
            val = val + to_z3(x, env, memo)
    else:
        op, args = payload
        if op == "narrow":
            val = _fit(to_z3(args[0], env, memo), W)
        elif op in ("add", "sub", "mul"):
            a = _fit(_arg(args[0], W, env, memo), W)
            b = _fit(_arg(args[1], W, env, memo), W)
            val = a + b if op == "add" else a - b if op == "sub" else a * b
        elif op in ("ltu", "ltu_mask", "eq", "cmpgt32"):
            a, b = args[0], args[1]
            wa = a.W if isinstance(a, anf.Sym) else (b.W if isinstance(b, anf.Sym) else 64)
            x, y = _fit(_arg(a, wa, env, memo), wa), _fit(_arg(b, wa, env, memo), wa)
            if isinstance(a, anf.Sym) and isinstance(b, anf.Sym) and a.W != b.W:
                n = max(a.W, b.W)
                x, y = z3.ZeroExt(n - x.size(), x), z3.ZeroExt(n - y.size(), y)
            cond = z3.ULT(x, y) if op in ("ltu", "ltu_mask") else x == y if op == "eq" \
                else x > y
            one = z3.BitVecVal(anf.ones(W) if op in ("ltu_mask", "cmpgt32") else 1, W)
            val = z3.If(cond, one, z3.BitVecVal(0, W))
        elif op == "select":
            c = _arg(args[0], 1, env, memo)
            a = _fit(_arg(args[1], W, env, memo), W)
            b = _fit(_arg(args[2], W, env, memo), W)
            val = z3.If(c != 0, a, b)
        elif op == "concat":
            parts, pw = args
            val = z3.Concat(*[_fit(_arg(p, pw, env, memo), pw) for p in reversed(parts)])
            val = _fit(val, W)
        else:
            raise NotImplementedError(op)
    memo[bid] = val
    return val


def prove_equal(a, b, env, timeout_ms=20000):
    """True when the solver shows a == b for every value of the free variables."""
    import z3
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(to_z3(a, env, {}) != to_z3(b, env, {}))
    return s.check() == z3.unsat
