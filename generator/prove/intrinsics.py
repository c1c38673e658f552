# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Models of the intrinsics and builtins the templates emit, over symbolic words.

Each entry has a signature (SIGNATURES) from which modelcheck.py writes a C program that runs
the real instruction on random operands and compares it with the model on the same operands,
so a wrong model is caught on the machine (or under qemu) before it can vouch for a kernel.
"""

from . import anf
from . import ctypes_ as T
from .interp import StructValue
from .simd_value import Vector, _concat_parts, join, regroup
from .memory import Pointer, Unsupported

M128, M256, M512 = T.VECTORS["__m128i"], T.VECTORS["__m256i"], T.VECTORS["__m512i"]
U64X2, U32X4, U16X8, U8X16 = (T.VECTORS[n] for n in ("uint64x2_t", "uint32x4_t",
                                                        "uint16x8_t", "uint8x16_t"))
U64X1, U32X2, U8X8 = (T.VECTORS[n] for n in ("uint64x1_t", "uint32x2_t", "uint8x8_t"))

MODELS = {}
# name -> (argument kinds, result kind): 'v<type name>', 'i<bits>' (operand), 'k<lo>-<hi>'
# (an immediate in that range), 'p' (pointer), 'm<bits>' (mask register)
SIGNATURES = {}


def model(name, sig):
    def deco(f):
        MODELS[name] = f
        SIGNATURES[name] = sig
        return f
    return deco


def _vec(arg, ew):
    v, t = arg
    return regroup(v, ew)


def _chunks(arg, cw):
    """A register as chunks of cw bits for an operation that only moves them: each chunk a
    list of the register's own elements where they are narrower (so a 32-bit word moved by a
    64-bit shuffle stays that word), and the width those elements have."""
    v, _ = arg
    if v.ew > cw:
        v = regroup(v, cw)
    k = cw // v.ew
    return [v.elems[i:i + k] for i in range(0, len(v.elems), k)], v.ew


def _from_chunks(chunks, ew, vt):
    return Vector([e for c in chunks for e in c], ew), vt


def _zero_chunk(cw, ew):
    return [0] * (cw // ew)


def _imm(arg, node):
    v, _ = arg
    if not isinstance(v, int):
        raise Unsupported(f"an immediate operand that is not a constant at "
                          f"{node.coord.file}:{node.coord.line}")
    return v


def _lanewise(name, vt, ew, f, sig, bitwise=False):
    def run(interp, args, node):
        # A bitwise operation means the same at any element width, so it runs at the widest
        # width all operands take without a concat: a 32-bit word stays one word instead of
        # half of a 64-bit pair, and bytes a shuffle moved rejoin the lane they came from.
        if bitwise:
            for w in sorted({a[0].ew for a in args}, reverse=True):
                vs = [_vec(a, w) for a in args]
                if all(a[0].ew >= w or not any(_concat_parts(e) for e in v.elems)
                       for a, v in zip(args, vs)):
                    break
        else:
            vs = [_vec(a, ew) for a in args]
            w = ew
        return Vector([f(*xs) for xs in zip(*(v.elems for v in vs))], w), vt
    MODELS[name] = run
    SIGNATURES[name] = sig


def _add(ew):
    def f(a, b):
        r = anf.add(a, b, ew)
        return r if r is not None else anf.opaque("add", [a, b], ew)
    return f


def _sub(ew):
    def f(a, b):
        if isinstance(a, int) and isinstance(b, int):
            return (a - b) & anf.ones(ew)
        if isinstance(b, int) and b == 0:
            return a
        return anf.opaque("sub", [a, b], ew)
    return f


for _p, _vt, _n in (("_mm", M128, "si128"), ("_mm256", M256, "si256"),
                    ("_mm512", M512, "si512")):
    _s = f"v{_vt.name},v{_vt.name}->v{_vt.name}"
    _lanewise(f"{_p}_xor_{_n}", _vt, 64, anf.xor, _s, bitwise=True)
    _lanewise(f"{_p}_and_{_n}", _vt, 64, anf.and_, _s, bitwise=True)
    _lanewise(f"{_p}_or_{_n}", _vt, 64, anf.or_, _s, bitwise=True)
    _lanewise(f"{_p}_andnot_{_n}", _vt, 64, lambda a, b: anf.xor(anf.and_(a, b), b), _s,
              bitwise=True)
    for _ew in (32, 64):
        _lanewise(f"{_p}_add_epi{_ew}", _vt, _ew, _add(_ew), _s)
        _lanewise(f"{_p}_sub_epi{_ew}", _vt, _ew, _sub(_ew), _s)


def _shift_imm(name, vt, ew, kind):
    def run(interp, args, node):
        v = _vec(args[0], ew)
        n = _imm(args[1], node)
        if kind == "slli":
            f = lambda e: anf.shl(e, n, ew) if n < ew else 0
        elif kind == "srli":
            f = lambda e: anf.shr(e, n, ew) if n < ew else 0
        else:
            f = lambda e: anf.rol(e, n % ew, ew)
        return Vector([f(e) for e in v.elems], ew), vt
    MODELS[name] = run
    SIGNATURES[name] = f"v{vt.name},k0-{ew - 1}->v{vt.name}"


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    for _ew in (32, 64):
        for _k in ("slli", "srli", "rol"):
            _shift_imm(f"{_p}_{_k}_epi{_ew}", _vt, _ew, _k)


@model("_mm_cvtsi32_si128", "i32->v__m128i")
def _cvtsi32(interp, args, node):
    v, _ = args[0]
    return Vector([anf.trunc(v, 32), 0, 0, 0], 32), M128


def _shift_count(name, vt, ew):
    """psrlq by a count in a register's low 64 bits: a count of ew or more clears the lane.
    The count must be a constant where the kernel runs (a case's length)."""
    def run(interp, args, node):
        v = _vec(args[0], ew)
        c = _vec(args[1], 64).elems[0]
        if not isinstance(c, int):
            raise Unsupported(f"a shift by a count that is not a constant at "
                              f"{node.coord.file}:{node.coord.line}")
        return Vector([anf.shr(e, c, ew) if c < ew else 0 for e in v.elems], ew), vt
    MODELS[name] = run
    SIGNATURES[name] = f"v{vt.name},v__m128i->v{vt.name}"


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    _shift_count(f"{_p}_srl_epi64", _vt, 64)


def _ternary(a, b, c, imm):
    """vpternlog: bit i of the result is bit (a_i << 2 | b_i << 1 | c_i) of imm. Computed as
    the truth table's ANF (its Moebius transform), so XOR3 costs no product at all."""
    coef = [imm >> i & 1 for i in range(8)]
    for bit in (1, 2, 4):
        for m in range(8):
            if m & bit:
                coef[m] ^= coef[m ^ bit]
    out = 0
    for m in range(8):
        if not coef[m]:
            continue
        term = None
        for bit, x in ((4, a), (2, b), (1, c)):
            if m & bit:
                term = x if term is None else anf.and_(term, x)
        out = anf.xor(out, anf.ones(64) if term is None else term)
    return out


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    def _tl(interp, args, node, _vt=_vt):
        a, b, c = (_vec(x, 64) for x in args[:3])
        imm = _imm(args[3], node)
        return Vector([_ternary(x, y, z, imm) for x, y, z in zip(a.elems, b.elems, c.elems)],
                      64), _vt
    MODELS[f"{_p}_ternarylogic_epi64"] = _tl
    SIGNATURES[f"{_p}_ternarylogic_epi64"] = \
        f"v{_vt.name},v{_vt.name},v{_vt.name},k0-255->v{_vt.name}"


def _load(vt):
    def run(interp, args, node):
        p, _ = args[0]
        return interp.load(p, T.Vec(vt.name, vt.bits, _natural(p, vt))), vt
    return run


def _natural(p, vt):
    """The element width the object was written with (so lanes stay lanes)."""
    if isinstance(p, Pointer) and p.obj is not None:
        c = p.obj.cells.get(p.off)
        if c is not None and c[0] * 8 <= vt.bits and isinstance(c[1], (int, anf.Sym)):
            return max(c[0] * 8, 8)
    return vt.ew


def _store(vt):
    def run(interp, args, node):
        p, _ = args[0]
        v, _ = args[1]
        interp.store(p, T.Vec(vt.name, vt.bits, v.ew), v)
        return None, T.VOID
    return run


for _p, _vt, _n in (("_mm", M128, "si128"), ("_mm256", M256, "si256"),
                    ("_mm512", M512, "si512")):
    MODELS[f"{_p}_loadu_{_n}"] = _load(_vt)
    SIGNATURES[f"{_p}_loadu_{_n}"] = f"p->v{_vt.name}"
    MODELS[f"{_p}_storeu_{_n}"] = _store(_vt)
    SIGNATURES[f"{_p}_storeu_{_n}"] = f"p,v{_vt.name}->void"
    MODELS[f"{_p}_setzero_{_n}"] = (lambda vt: lambda i, a, n: (
        Vector([0] * (vt.bits // 64), 64), vt))(_vt)
    SIGNATURES[f"{_p}_setzero_{_n}"] = f"->v{_vt.name}"


def _set1(vt, ew):
    def run(interp, args, node):
        v, t = args[0]
        v = anf.trunc(v, ew) if not isinstance(v, Pointer) else v
        return Vector([v] * (vt.bits // ew), ew), vt
    return run


def _setr(vt, ew):
    def run(interp, args, node):
        return Vector([anf.trunc(a[0], ew) for a in args], ew), vt
    return run


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    n64 = _vt.bits // 64
    for _ew, _suffix in ((64, "epi64x" if _p != "_mm512" else "epi64"), (32, "epi32"),
                         (8, "epi8")):
        MODELS[f"{_p}_set1_{_suffix}"] = _set1(_vt, _ew)
        SIGNATURES[f"{_p}_set1_{_suffix}"] = f"i{_ew}->v{_vt.name}"
        MODELS[f"{_p}_setr_{_suffix}"] = _setr(_vt, _ew)
        SIGNATURES[f"{_p}_setr_{_suffix}"] = ",".join([f"i{_ew}"] * (_vt.bits // _ew)) + \
            f"->v{_vt.name}"


def _unpack(vt, ew, hi):
    def run(interp, args, node):
        (a, w1), (b, w2) = _chunks(args[0], ew), _chunks(args[1], ew)
        if w1 != w2:
            (a, w1), (b, w2) = _chunks((regroup(args[0][0], min(w1, w2)), None), ew), \
                _chunks((regroup(args[1][0], min(w1, w2)), None), ew)
        per = 128 // ew
        out = []
        for lane in range(vt.bits // 128):
            base = lane * per + (per // 2 if hi else 0)
            for i in range(per // 2):
                out.append(a[base + i])
                out.append(b[base + i])
        return _from_chunks(out, w1, vt)
    return run


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    for _ew in (32, 64):
        for _hi in (False, True):
            _nm = f"{_p}_unpack{'hi' if _hi else 'lo'}_epi{_ew}"
            MODELS[_nm] = _unpack(_vt, _ew, _hi)
            SIGNATURES[_nm] = f"v{_vt.name},v{_vt.name}->v{_vt.name}"


def _pshufb(vt):
    def run(interp, args, node):
        a = _vec(args[0], 8)
        idx = _vec(args[1], 8)
        out = []
        for i, k in enumerate(idx.elems):
            if not isinstance(k, int):
                raise Unsupported("a byte shuffle by data")
            lane = i // 16 * 16
            out.append(0 if k & 0x80 else a.elems[lane + (k & 15)])
        return Vector(out, 8), vt
    return run


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    MODELS[f"{_p}_shuffle_epi8"] = _pshufb(_vt)
    SIGNATURES[f"{_p}_shuffle_epi8"] = f"v{_vt.name},v{_vt.name}->v{_vt.name}"


def _pshufd(vt):
    def run(interp, args, node):
        a = _vec(args[0], 32)
        imm = _imm(args[1], node)
        out = [a.elems[lane + (imm >> (2 * k) & 3)]
               for lane in range(0, len(a.elems), 4) for k in range(4)]
        return Vector(out, 32), vt
    return run


for _p, _vt in (("_mm", M128), ("_mm256", M256), ("_mm512", M512)):
    MODELS[f"{_p}_shuffle_epi32"] = _pshufd(_vt)
    SIGNATURES[f"{_p}_shuffle_epi32"] = f"v{_vt.name},k0-255->v{_vt.name}"


@model("_mm256_permute2x128_si256", "v__m256i,v__m256i,k0-255->v__m256i")
def _perm2x128(interp, args, node):
    w = min(args[0][0].ew, args[1][0].ew, 64)
    (a, _), (b, _) = _chunks((regroup(args[0][0], w), None), 128), \
        _chunks((regroup(args[1][0], w), None), 128)
    imm = _imm(args[2], node)
    src = [a[0], a[1], b[0], b[1]]
    out = []
    for half in (imm & 0xF, imm >> 4 & 0xF):
        out.append(_zero_chunk(128, w) if half & 8 else src[half & 3])
    return _from_chunks(out, w, M256)


def _chunk_move(src_vt, dst_vt, pick):
    """A move of whole 128-bit chunks: the result's chunks are pick(the operands' chunks,
    the immediate), a chunk None for zeros."""
    def run(interp, args, node):
        w = min([a[0].ew for a in args if isinstance(a[0], Vector)] + [64])
        vecs = [_chunks((regroup(a[0], w), None), 128)[0] for a in args
                if isinstance(a[0], Vector)]
        imm = _imm(args[-1], node) if not isinstance(args[-1][0], Vector) else None
        out = [_zero_chunk(128, w) if c is None else c for c in pick(vecs, imm)]
        return _from_chunks(out, w, dst_vt)
    return run


# The separate states' loads and stores: 128-bit chunks in and out of a wider register.
MODELS["_mm256_zextsi128_si256"] = _chunk_move(M128, M256, lambda v, i: [v[0][0], None])
SIGNATURES["_mm256_zextsi128_si256"] = "v__m128i->v__m256i"
MODELS["_mm256_castsi256_si128"] = _chunk_move(M256, M128, lambda v, i: [v[0][0]])
SIGNATURES["_mm256_castsi256_si128"] = "v__m256i->v__m128i"
MODELS["_mm256_extracti128_si256"] = _chunk_move(M256, M128, lambda v, i: [v[0][i & 1]])
SIGNATURES["_mm256_extracti128_si256"] = "v__m256i,k0-1->v__m128i"
MODELS["_mm256_inserti128_si256"] = _chunk_move(
    M256, M256, lambda v, i: [v[1][0] if k == (i & 1) else v[0][k] for k in range(2)])
SIGNATURES["_mm256_inserti128_si256"] = "v__m256i,v__m128i,k0-1->v__m256i"
MODELS["_mm512_zextsi128_si512"] = _chunk_move(M128, M512, lambda v, i: [v[0][0]] + [None] * 3)
SIGNATURES["_mm512_zextsi128_si512"] = "v__m128i->v__m512i"
MODELS["_mm512_castsi512_si128"] = _chunk_move(M512, M128, lambda v, i: [v[0][0]])
SIGNATURES["_mm512_castsi512_si128"] = "v__m512i->v__m128i"
MODELS["_mm512_extracti32x4_epi32"] = _chunk_move(M512, M128, lambda v, i: [v[0][i & 3]])
SIGNATURES["_mm512_extracti32x4_epi32"] = "v__m512i,k0-3->v__m128i"
MODELS["_mm512_inserti32x4"] = _chunk_move(
    M512, M512, lambda v, i: [v[1][0] if k == (i & 3) else v[0][k] for k in range(4)])
SIGNATURES["_mm512_inserti32x4"] = "v__m512i,v__m128i,k0-3->v__m512i"


def _shuffle_x4(ew):
    def run(interp, args, node):
        w = min(args[0][0].ew, args[1][0].ew, ew)
        (a, _), (b, _) = _chunks((regroup(args[0][0], w), None), 128), \
            _chunks((regroup(args[1][0], w), None), 128)
        imm = _imm(args[2], node)
        sel = [a[imm & 3], a[imm >> 2 & 3], b[imm >> 4 & 3], b[imm >> 6 & 3]]
        return _from_chunks(sel, w, M512)
    return run


MODELS["_mm512_shuffle_i64x2"] = _shuffle_x4(64)
SIGNATURES["_mm512_shuffle_i64x2"] = "v__m512i,v__m512i,k0-255->v__m512i"
MODELS["_mm512_shuffle_i32x4"] = _shuffle_x4(32)
SIGNATURES["_mm512_shuffle_i32x4"] = "v__m512i,v__m512i,k0-255->v__m512i"


@model("_mm256_broadcastsi128_si256", "v__m128i->v__m256i")
def _bcast128(interp, args, node):
    a, _ = args[0]
    return Vector(a.elems * 2, a.ew), M256


@model("_mm512_broadcast_i32x4", "v__m128i->v__m512i")
def _bcast_i32x4(interp, args, node):
    a, _ = args[0]
    if a.ew > 32:
        a = regroup(a, 32)
    return Vector(a.elems * 4, a.ew), M512


def _cmpgt32(vt):
    def run(interp, args, node):
        a, b = _vec(args[0], 32), _vec(args[1], 32)
        out = []
        for x, y in zip(a.elems, b.elems):
            if isinstance(x, int) and isinstance(y, int):
                sx = x - (1 << 32) if x >> 31 else x
                sy = y - (1 << 32) if y >> 31 else y
                out.append(0xFFFFFFFF if sx > sy else 0)
            else:
                out.append(anf.opaque("cmpgt32", [x, y], 32))
        return Vector(out, 32), vt
    return run


anf.OPAQUE_EVAL["cmpgt32"] = lambda W, a, b: 0xFFFFFFFF if (
    (a - (1 << 32) if a >> 31 else a) > (b - (1 << 32) if b >> 31 else b)) else 0
anf.OPAQUE_EVAL["ltu_mask"] = lambda W, a, b: anf.ones(W) if a < b else 0

for _p, _vt in (("_mm", M128), ("_mm256", M256)):
    MODELS[f"{_p}_cmpgt_epi32"] = _cmpgt32(_vt)
    SIGNATURES[f"{_p}_cmpgt_epi32"] = f"v{_vt.name},v{_vt.name}->v{_vt.name}"


@model("_mm512_cmplt_epu32_mask", "v__m512i,v__m512i->m16")
def _cmplt_epu32_mask(interp, args, node):
    a, b = _vec(args[0], 32), _vec(args[1], 32)
    bits = []
    for x, y in zip(a.elems, b.elems):
        if isinstance(x, int) and isinstance(y, int):
            bits.append(int(x < y))
        else:
            bits.append(anf.opaque("ltu", [x, y], 1))
    if all(isinstance(b, int) for b in bits):
        return sum(b << i for i, b in enumerate(bits)), T.U16
    # a mask register bit by bit; its bits come back out in _mask_bits
    return anf.opaque("maskbits", [tuple(bits)], 16), T.U16


anf.OPAQUE_EVAL["maskbits"] = lambda W, bits: sum(b << i for i, b in enumerate(bits))


@model("_mm512_mask_add_epi32", "v__m512i,m16,v__m512i,v__m512i->v__m512i")
def _mask_add_epi32(interp, args, node):
    src = _vec(args[0], 32)
    k = _mask_bits(args[1], 16)
    a, b = _vec(args[2], 32), _vec(args[3], 32)
    out = []
    for s, bit, x, y in zip(src.elems, k, a.elems, b.elems):
        s_ = _add(32)(x, y)
        if isinstance(bit, int):
            out.append(s_ if bit else s)
        else:
            out.append(anf.opaque("select", [bit, s_, s], 32))
    return Vector(out, 32), M512


def _mask_bits(arg, n):
    v, _ = arg
    if isinstance(v, int):
        return [v >> i & 1 for i in range(n)]
    if isinstance(v, anf.Sym) and len(v.t) == 1:
        (m, c), = v.t.items()
        if len(m) == 1 and m[0] & 63 == 0:
            bid = m[0] >> 6
            if anf.BASES.kind[bid] == "op" and anf.BASES.payload[bid][0] == "maskbits":
                bits = anf.BASES.payload[bid][1][0]
                return [bits[i] if c >> i & 1 else 0 for i in range(n)]
    raise Unsupported("a mask register from data")


def _masked_load(vt, zero_name):
    def run(interp, args, node):
        if zero_name:       # _mm512_maskz_loadu_epi64(k, p)
            k = _mask_bits(args[0], vt.bits // 64)
            p, _ = args[1]
        else:               # _mm256_maskload_epi64(p, mask vector)
            p, _ = args[0]
            m = _vec(args[1], 64)
            k = []
            for e in m.elems:
                if not isinstance(e, int):
                    raise Unsupported("a load mask from data")
                k.append(e >> 63)
        out = []
        for i, bit in enumerate(k):
            if not isinstance(bit, int):
                raise Unsupported("a load mask from data")
            out.append(p.obj.read(p.off + 8 * i, 8) if bit else 0)
        return Vector(out, 64), vt
    return run


def _masked_store(vt, mask_first):
    def run(interp, args, node):
        p, _ = args[0]
        if mask_first:      # _mm512_mask_storeu_epi64(p, k, v)
            k = _mask_bits(args[1], vt.bits // 64)
            v = _vec(args[2], 64)
        else:               # _mm256_maskstore_epi64(p, mask vector, v)
            m = _vec(args[1], 64)
            k = [e >> 63 if isinstance(e, int) else None for e in m.elems]
            v = _vec(args[2], 64)
        for i, bit in enumerate(k):
            if bit is None or not isinstance(bit, int):
                raise Unsupported("a store mask from data")
            if bit:
                p.obj.write(p.off + 8 * i, 8, v.elems[i])
        return None, T.VOID
    return run


@model("_mm512_maskz_set1_epi64", "m8,i64->v__m512i")
def _maskz_set1_epi64(interp, args, node):
    k = _mask_bits(args[0], 8)
    v = anf.trunc(args[1][0], 64)
    if not all(isinstance(bit, int) for bit in k):
        raise Unsupported("a mask register from data")
    return Vector([v if bit else 0 for bit in k], 64), M512


def _indices(arg, bits, what):
    """The elements of an index (or count) vector, which must be constants: the low `bits`
    bits of each, as the instruction reads them."""
    elems = _vec(arg, 64).elems
    if not all(isinstance(e, int) for e in elems):
        raise Unsupported(f"{what} from data")
    return [e & ((1 << bits) - 1) for e in elems]


@model("_mm512_mask_blend_epi64", "m8,v__m512i,v__m512i->v__m512i")
def _mask_blend_epi64(interp, args, node):
    # Slot s of b where bit s of the mask is set, of a elsewhere; the mask must be a constant.
    k = _mask_bits(args[0], 8)
    if not all(isinstance(bit, int) for bit in k):
        raise Unsupported("a mask register from data")
    a, b = _vec(args[1], 64).elems, _vec(args[2], 64).elems
    return Vector([y if bit else x for bit, x, y in zip(k, a, b)], 64), M512


@model("_mm512_set_epi64", ",".join(["i64"] * 8) + "->v__m512i")
def _set_epi64(interp, args, node):
    # The highest element first.
    return Vector([anf.trunc(a[0], 64) for a in reversed(args)], 64), M512


@model("_mm512_permutexvar_epi64", "v__m512i,v__m512i->v__m512i")
def _permutexvar_epi64(interp, args, node):
    idx = _indices(args[0], 3, "a permutation index")
    a = _vec(args[1], 64).elems
    return Vector([a[i] for i in idx], 64), M512


@model("_mm512_mask_permutexvar_epi64", "v__m512i,m8,v__m512i,v__m512i->v__m512i")
def _mask_permutexvar_epi64(interp, args, node):
    # vpermq under a merging mask: slot s of src where bit s of the mask is clear.
    src = _vec(args[0], 64).elems
    k = _mask_bits(args[1], 8)
    if not all(isinstance(bit, int) for bit in k):
        raise Unsupported("a mask register from data")
    idx = _indices(args[2], 3, "a permutation index")
    a = _vec(args[3], 64).elems
    return Vector([a[i] if bit else s for bit, s, i in zip(k, src, idx)], 64), M512


@model("_mm512_permutex2var_epi64", "v__m512i,v__m512i,v__m512i->v__m512i")
def _permutex2var_epi64(interp, args, node):
    idx = _indices(args[1], 4, "a permutation index")
    both = _vec(args[0], 64).elems + _vec(args[2], 64).elems
    return Vector([both[i] for i in idx], 64), M512


@model("_mm512_rolv_epi64", "v__m512i,v__m512i->v__m512i")
def _rolv_epi64(interp, args, node):
    counts = _indices(args[1], 6, "a rotation count")
    a = _vec(args[0], 64).elems
    return Vector([anf.rol(e, n, 64) if n else e for e, n in zip(a, counts)], 64), M512


MODELS["_mm512_maskz_loadu_epi64"] = _masked_load(M512, True)
SIGNATURES["_mm512_maskz_loadu_epi64"] = "m8,p->v__m512i"
MODELS["_mm256_maskz_loadu_epi64"] = _masked_load(M256, True)
SIGNATURES["_mm256_maskz_loadu_epi64"] = "m8,p->v__m256i"
MODELS["_mm256_maskload_epi64"] = _masked_load(M256, False)
SIGNATURES["_mm256_maskload_epi64"] = "p,v__m256i->v__m256i"
MODELS["_mm512_mask_storeu_epi64"] = _masked_store(M512, True)
SIGNATURES["_mm512_mask_storeu_epi64"] = "p,m8,v__m512i->void"
MODELS["_mm256_mask_storeu_epi64"] = _masked_store(M256, True)
SIGNATURES["_mm256_mask_storeu_epi64"] = "p,m8,v__m256i->void"
MODELS["_mm256_maskstore_epi64"] = _masked_store(M256, False)
SIGNATURES["_mm256_maskstore_epi64"] = "p,v__m256i,v__m256i->void"


@model("_mm_loadl_epi64", "p->v__m128i")
def _loadl(interp, args, node):
    p, _ = args[0]
    return Vector([p.obj.read(p.off, 8), 0], 64), M128


@model("_mm_storel_epi64", "p,v__m128i->void")
def _storel(interp, args, node):
    p, _ = args[0]
    v = _vec(args[1], 64)
    p.obj.write(p.off, 8, v.elems[0])
    return None, T.VOID


def _undefined(vt):
    def run(interp, args, node):
        # any value at all: a fresh unknown per call site, so using it cannot be proven
        n = vt.bits // 64
        site = f"{node.coord.file}:{node.coord.line}"
        return Vector([anf.var(f"undefined@{site}#{i}", 64) for i in range(n)], 64), vt
    return run


for _n in ("_mm512_undefined_epi32", "_mm512_undefined_si512"):
    MODELS[_n] = _undefined(M512)
    SIGNATURES[_n] = None


# -- scalar builtins --

def _rot_builtin(w, left):
    def run(interp, args, node):
        x, _ = args[0]
        n, _ = args[1]
        if not isinstance(n, int):
            raise Unsupported("a rotation by data")
        n %= w
        t = T.U64 if w == 64 else T.U32
        return anf.rol(anf.trunc(x, w), n if left else (w - n) % w, w), t
    return run


MODELS["__builtin_rotateleft64"] = _rot_builtin(64, True)
SIGNATURES["__builtin_rotateleft64"] = "i64,k0-63->i64"
MODELS["__builtin_rotateright64"] = _rot_builtin(64, False)
SIGNATURES["__builtin_rotateright64"] = "i64,k0-63->i64"
MODELS["__builtin_rotateleft32"] = _rot_builtin(32, True)
SIGNATURES["__builtin_rotateleft32"] = "i32,k0-31->i32"
MODELS["_rotl64"] = _rot_builtin(64, True)
SIGNATURES["_rotl64"] = None        # MSVC only: modelled as documented, not run here


@model("memcpy", None)
def _memcpy(interp, args, node):
    dst, _ = args[0]
    src, _ = args[1]
    n, _ = args[2]
    if not isinstance(n, int):
        raise Unsupported("a memcpy of a data-dependent length")
    _copy(dst, src, n)
    return dst, T.Ptr(T.VOID)


def _copy(dst, src, n):
    off = 0
    while off < n:
        c = src.obj.cells.get(src.off + off)
        if c is not None and off + c[0] <= n:
            dst.obj.write(dst.off + off, c[0], c[1])
            off += c[0]
        else:
            dst.obj.write(dst.off + off, 1, src.obj.read(src.off + off, 1))
            off += 1


@model("memset", None)
def _memset(interp, args, node):
    dst, _ = args[0]
    v, _ = args[1]
    n, _ = args[2]
    if not isinstance(v, int) or not isinstance(n, int):
        raise Unsupported("a memset of data")
    for i in range(n):
        dst.obj.write(dst.off + i, 1, v & 0xFF)
    return dst, T.Ptr(T.VOID)


# -- AArch64 NEON and the SHA3 extension --

def _neon_lanewise(name, vt, ew, f, nargs=2):
    sig = ",".join([f"v{vt.name}"] * nargs) + f"->v{vt.name}"
    _lanewise(name, vt, ew, f, sig)
    MODELS[name].ew = ew


for _ew, _vt in ((64, U64X2), (32, U32X4), (8, U8X16)):
    _neon_lanewise(f"veorq_u{_ew}", _vt, _ew, anf.xor)
    _neon_lanewise(f"vandq_u{_ew}", _vt, _ew, anf.and_)
    _neon_lanewise(f"vorrq_u{_ew}", _vt, _ew, anf.or_)
    _neon_lanewise(f"vbicq_u{_ew}", _vt, _ew, lambda a, b, _w=_ew: anf.and_(a, anf.not_(b, _w)))
for _ew, _vt in ((64, U64X2), (32, U32X4)):
    _neon_lanewise(f"vaddq_u{_ew}", _vt, _ew, _add(_ew))
    _neon_lanewise(f"vsubq_u{_ew}", _vt, _ew, _sub(_ew))

_neon_lanewise("veor3q_u64", U64X2, 64, lambda a, b, c: anf.xor(anf.xor(a, b), c), 3)
_neon_lanewise("vbcaxq_u64", U64X2, 64, lambda a, b, c: anf.xor(a, anf.and_(b, anf.not_(c, 64))),
               3)
_neon_lanewise("vrax1q_u64", U64X2, 64, lambda a, b: anf.xor(a, anf.rol(b, 1, 64)))


def _cltq(interp, args, node):
    a, b = _vec(args[0], 32), _vec(args[1], 32)
    out = []
    for x, y in zip(a.elems, b.elems):
        if isinstance(x, int) and isinstance(y, int):
            out.append(0xFFFFFFFF if x < y else 0)
        else:
            out.append(anf.opaque("ltu_mask", [x, y], 32))
    return Vector(out, 32), U32X4


MODELS["vcltq_u32"] = _cltq
SIGNATURES["vcltq_u32"] = "vuint32x4_t,vuint32x4_t->vuint32x4_t"


@model("vxarq_u64", "vuint64x2_t,vuint64x2_t,k0-63->vuint64x2_t")
def _xar(interp, args, node):
    a, b = _vec(args[0], 64), _vec(args[1], 64)
    n = _imm(args[2], node)
    return Vector([anf.rol(anf.xor(x, y), (64 - n) % 64, 64) for x, y in
                   zip(a.elems, b.elems)], 64), U64X2


def _neon_shift(name, vt, ew, kind):
    def run(interp, args, node):
        if kind == "sri":
            a, b = _vec(args[0], ew), _vec(args[1], ew)
            n = _imm(args[2], node)
            keep = anf.ones(ew) & ~anf.ones(ew - n)
            return Vector([anf.xor(anf.and_(x, keep), anf.shr(y, n, ew)) for x, y in
                           zip(a.elems, b.elems)], ew), vt
        a = _vec(args[0], ew)
        n = _imm(args[1], node)
        f = (lambda e: anf.shl(e, n, ew)) if kind == "shl" else (lambda e: anf.shr(e, n, ew))
        return Vector([f(e) for e in a.elems], ew), vt
    MODELS[name] = run
    if kind == "sri":
        SIGNATURES[name] = f"v{vt.name},v{vt.name},k1-{ew}->v{vt.name}"
    elif kind == "shl":
        SIGNATURES[name] = f"v{vt.name},k0-{ew - 1}->v{vt.name}"
    else:
        SIGNATURES[name] = f"v{vt.name},k1-{ew}->v{vt.name}"


for _ew, _vt in ((64, U64X2), (32, U32X4)):
    _neon_shift(f"vshlq_n_u{_ew}", _vt, _ew, "shl")
    _neon_shift(f"vshrq_n_u{_ew}", _vt, _ew, "shr")
    _neon_shift(f"vsriq_n_u{_ew}", _vt, _ew, "sri")


def _neon_ld(vt, ew):
    def run(interp, args, node):
        p, _ = args[0]
        n = vt.bits // ew
        return Vector([p.obj.read(p.off + i * ew // 8, ew // 8) for i in range(n)], ew), vt
    return run


def _neon_st(vt, ew):
    def run(interp, args, node):
        p, _ = args[0]
        v = _vec(args[1], ew)
        for i, e in enumerate(v.elems):
            p.obj.write(p.off + i * ew // 8, ew // 8, e)
        return None, T.VOID
    return run


for _nm, _vt, _ew in (("q_u64", U64X2, 64), ("q_u32", U32X4, 32), ("q_u8", U8X16, 8),
                      ("_u8", U8X8, 8), ("_u64", U64X1, 64)):
    MODELS[f"vld1{_nm}"] = _neon_ld(_vt, _ew)
    SIGNATURES[f"vld1{_nm}"] = f"p->v{_vt.name}"
    MODELS[f"vst1{_nm}"] = _neon_st(_vt, _ew)
    SIGNATURES[f"vst1{_nm}"] = f"p,v{_vt.name}->void"


@model("vld1q_dup_u64", "p->vuint64x2_t")
def _ld1_dup(interp, args, node):
    p, _ = args[0]
    return Vector([p.obj.read(p.off, 8)] * 2, 64), U64X2


@model("vst1q_lane_u64", "p,vuint64x2_t,k0-1->void")
def _st1_lane(interp, args, node):
    p, _ = args[0]
    p.obj.write(p.off, 8, _vec(args[1], 64).elems[_imm(args[2], node)])
    return None, T.VOID


def _dup(vt, ew):
    def run(interp, args, node):
        v, _ = args[0]
        return Vector([anf.trunc(v, ew)] * (vt.bits // ew), ew), vt
    return run


MODELS["vdupq_n_u64"] = _dup(U64X2, 64)
SIGNATURES["vdupq_n_u64"] = "i64->vuint64x2_t"
MODELS["vdupq_n_u32"] = _dup(U32X4, 32)
SIGNATURES["vdupq_n_u32"] = "i32->vuint32x4_t"
MODELS["vdup_n_u64"] = _dup(U64X1, 64)
SIGNATURES["vdup_n_u64"] = "i64->vuint64x1_t"


def _combine(vt, half, ew):
    def run(interp, args, node):
        w = min(args[0][0].ew, args[1][0].ew, ew)
        a, b = regroup(args[0][0], w), regroup(args[1][0], w)
        return Vector(a.elems + b.elems, w), vt
    MODELS[f"vcombine_u{ew}"] = run
    SIGNATURES[f"vcombine_u{ew}"] = f"v{half.name},v{half.name}->v{vt.name}"


_combine(U64X2, U64X1, 64)
_combine(U32X4, U32X2, 32)


def _get_half(vt, half, ew, hi):
    def run(interp, args, node):
        a = _vec(args[0], ew)
        n = len(a.elems) // 2
        return Vector(a.elems[n:] if hi else a.elems[:n], ew), half
    nm = f"vget_{'high' if hi else 'low'}_u{ew}"
    MODELS[nm] = run
    SIGNATURES[nm] = f"v{vt.name}->v{half.name}"


for _hi in (False, True):
    _get_half(U64X2, U64X1, 64, _hi)
    _get_half(U32X4, U32X2, 32, _hi)


def _zip(vt, ew, second):
    def run(interp, args, node):
        w = min(args[0][0].ew, args[1][0].ew, ew)
        (a, _), (b, _) = _chunks((regroup(args[0][0], w), None), ew), \
            _chunks((regroup(args[1][0], w), None), ew)
        n = len(a) // 2
        base = n if second else 0
        out = []
        for i in range(n):
            out += [a[base + i], b[base + i]]
        return _from_chunks(out, w, vt)
    return run


for _ew, _vt in ((64, U64X2), (32, U32X4)):
    for _second in (False, True):
        _nm = f"vzip{2 if _second else 1}q_u{_ew}"
        MODELS[_nm] = _zip(_vt, _ew, _second)
        SIGNATURES[_nm] = f"v{_vt.name},v{_vt.name}->v{_vt.name}"


@model("vtrnq_u32", "vuint32x4_t,vuint32x4_t->vuint32x4x2_t")
def _trn(interp, args, node):
    a, b = _vec(args[0], 32), _vec(args[1], 32)
    x, y = a.elems, b.elems
    v0 = Vector([x[0], y[0], x[2], y[2]], 32)
    v1 = Vector([x[1], y[1], x[3], y[3]], 32)
    st = interp.typedefs["uint32x4x2_t"]
    return StructValue(st, {"val": (v0, v1)}), st


@model("vrev32q_u16", "vuint16x8_t->vuint16x8_t")
def _rev32_16(interp, args, node):
    a = _vec(args[0], 16)
    out = []
    for i in range(0, 8, 2):
        out += [a.elems[i + 1], a.elems[i]]
    return Vector(out, 16), U16X8


@model("vqtbl1q_u8", "vuint8x16_t,vuint8x16_t->vuint8x16_t")
def _tbl(interp, args, node):
    a, idx = _vec(args[0], 8), _vec(args[1], 8)
    out = []
    for k in idx.elems:
        if not isinstance(k, int):
            raise Unsupported("a table lookup by data")
        out.append(a.elems[k] if k < 16 else 0)
    return Vector(out, 8), U8X16


def _reinterpret(to):
    def run(interp, args, node):
        v, _ = args[0]
        return regroup(v, to.ew), to
    return run


for _q, _types in (("q", (U64X2, U32X4, U16X8, U8X16)), ("", (U64X1, U32X2, U8X8))):
    for _to in _types:
        for _frm in _types:
            if _to is not _frm:
                _a, _b = _to.name.split("x")[0][1:], _frm.name.split("x")[0][1:]
                _nm = f"vreinterpret{_q}_u{_a[3:]}_u{_b[3:]}"
                MODELS[_nm] = _reinterpret(_to)
                SIGNATURES[_nm] = f"v{_frm.name}->v{_to.name}"

# combinations the loops above make that no compiler defines
for _n in ("_mm512_setr_epi8", "_mm_setr_epi64x"):
    del MODELS[_n], SIGNATURES[_n]
