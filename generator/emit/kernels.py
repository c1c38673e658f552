# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What each kernel family generates: a variant in, named file texts out.

This is the seam between the model (the maths, as data) and the templates (printing): it
computes the few presentation facts a template needs (header guard, declared names) and
leaves every decision about the algorithm to the model modules.
"""

from ..model import (avx512_lines as lines, chacha_maths as chacha, cpuid, keccak_maths as keccak, simd, snp_xn_model as snp_xn, sponge_maths as sponge, vectors, x86_lowering as x86asm)
from ..choice import cpu_table, targets, variants
from . import render

KECCAK_FILES = ("keccak_p1600.h", "keccak_p1600.c")


def guard(ns, filename):
    """A header's include guard: the folder's namespace, then the file's name
    (RS_DISPATCH_H for rs_dispatch.h, A_KECCAK_SPONGE_H under the prefix a_)."""
    stem = filename[len(render.NAMESPACE):] if filename.startswith(render.NAMESPACE) else filename
    return (ns + stem).upper().replace(".", "_").replace("-", "_")


def keccak_scalar(env, variant, prefix, command, target, built="", isa_target="", ns=None,
                  header_name="keccak_p1600.h"):
    """The scalar kernel. In a bundle, `built` is the preprocessor condition it compiles under
    and `isa_target` the x86 extensions this copy may use (a target pragma over the file).
    `prefix` starts its functions' names; `ns` is the folder's namespace (render.namespace,
    by default that of `prefix`) and `header_name` the header's name in the folder (its
    guard)."""
    ns = render.namespace(prefix) if ns is None else ns
    s = keccak.schedule(variant.unroll, variant.lane_complement,
                        fused_parity=(variant.parity == "fused"))
    params = (("target", target.name),) + variant.params + (("prefix", prefix or "(none)"),)
    negated = sorted({copy for row in s.rows for copy, _ in row.negated})
    common = dict(prefix=prefix, ns=ns, variant=variant, variant_name=variant.name, built=built,
                  isa_target=isa_target)
    if isa_target:
        params += (("isa target", isa_target),)
    h = render.render(env, "keccak_p1600.h.j2", **common,
                      header=render.provenance(params, command, "keccak_p1600.h: the API."),
                      guard=guard(ns, header_name))
    c_header = render.provenance(params, command, f"keccak_p1600.c: {variant.name}.")
    if variant.isa == "x86asm":
        c = render.render(env, "keccak_p1600_x86asm.c.j2", **common, header=c_header,
                          low=x86asm.lower(variant.lane_complement, variant.rotate, variant.parity),
                          round_constants=s.round_constants, complemented=s.complemented,
                          nots=keccak.nots_per_round(s.pattern), lanes=keccak.LANES,
                          scratch_words=x86asm.SCRATCH_WORDS, scratch_rc=x86asm.SCRATCH_RC,
                          scratch_end=x86asm.SCRATCH_END)
    else:
        c = render.render(env, "keccak_p1600_scalar.c.j2", **common, header=c_header,
                          s=s, negated=negated, nots=keccak.nots_per_round(s.pattern),
                          L=keccak.lane_layout(variant.lanes), swaps=keccak.delta_swaps(),
                          rc=keccak.interleaved_round_constants(),
                          columns=keccak.COLUMN_LETTERS, iota_lane=keccak.IOTA_LANE,
                          absorb_starts=[keccak.MAX_ROUNDS - r for r in keccak.ABSORB_ROUNDS])
    return {"keccak_p1600.h": h, "keccak_p1600.c": c}


CHACHA_FILES = ("chacha.h", "chacha8.h", "chacha.c")


def _chacha_shapes(level, variant):
    """A level's block-parallel paths as (lanes, sets), widest first: interleaved block sets
    only in the asked-for level's widest path; tails stay single."""
    shapes = [(w, 1) for w in level.widths]
    if level.name == variant.isa and variant.states > 1:
        shapes.insert(0, (level.widths[0], variant.states))
    return shapes


def chacha_level_shapes(variant):
    """What chacha.c's level functions for `variant` run, per level: isa, the block counts of
    its block-parallel paths (widest first) and its row paths as (sets, above) (n > above
    takes that many sets), as the template's level functions choose them. The self-test
    derives the block counts that reach every one of them from this."""
    return [dict(isa=level.name, widths=tuple(w * n for w, n in _chacha_shapes(level, variant)),
                 rows=tuple((n, level.rows * (n - 1)) for n in level.row_sets))
            for level in targets.chacha_levels(variant.isa)]


def chacha_sources(env, variant, prefix, command, target, dispatch=None,
                   keep_drop_in_names=False):
    """chacha.h (the API), chacha8.h (the chiapos header name), chacha.c (every level; in a
    bundle, `dispatch` says which path runs which level). `keep_drop_in_names`: chiapos'
    names (ChaCha8's) without the prefix."""
    params = (("target", target.name),) + variant.params + render.prefix_params(
        prefix, keep_drop_in_names)
    levels = []
    for level in targets.chacha_levels(variant.isa):
        rotate = targets.level_rotation(level, variant.rotate)
        k = chacha.kernel(variant.schedule, rotate)
        shapes = _chacha_shapes(level, variant)
        first_scalar, first_vector = (chacha.split_uniform(k.ops) if level.uniform
                                      else ((), k.ops))
        paths = [dict(width=w * n, lanes=w, states=n, ops=chacha.interleave(k.ops, n),
                      first_scalar=first_scalar,
                      first_vector=chacha.interleave(first_vector, n),
                      vtype=targets.vector_type(level, w)[0], p=targets.vector_type(level, w)[1],
                      si=targets.vector_type(level, w)[2]) for w, n in shapes]
        # above: the block count the next fewer sets cover, so n > above takes these sets.
        row_sets = [dict(sets=n, blocks=level.rows * n, above=level.rows * (n - 1),
                         ops=chacha.interleave_rows(chacha.row_double_round(rotate), n))
                    for n in level.row_sets]
        levels.append(dict(isa=level.name, attribute=level.attribute, cpu=level.cpu,
                           family=level.family, rows=row_sets, unroll=level.unroll,
                           min_blocks=1 if row_sets else level.widths[-1] if paths else 0,
                           rotate=rotate, kernel=k, paths=paths,
                           **(dispatch.chacha_guards(level.name) if dispatch else {})))
    if dispatch:
        # A level no path runs is left out of the bundle.
        levels = [l for l in levels if not l["paths"] or l["built"] != "0"]
    scalar = chacha.kernel(variant.schedule if variant.isa == "scalar"
                           else chacha.ONE_BLOCK_SCHEDULE, "shift")
    params += (("one_block_schedule", scalar.schedule),)
    ns = render.namespace(prefix)
    common = dict(prefix=prefix, ns=ns, variant=variant, rounds=variant.rounds, dispatch=dispatch,
                  drop_in_prefix=render.drop_in_prefix(prefix, keep_drop_in_names))
    h = render.render(env, "chacha.h.j2", **common,
                      header=render.provenance(params, command, "chacha.h: the API."),
                      guard=guard(ns, "chacha.h"))
    h8 = render.render(env, "chacha8.h.j2", **common,
                       header=render.provenance(params, command,
                                                "chacha8.h: the chiapos header name."),
                       guard=guard(ns, "chacha8.h"))
    c = render.render(env, "chacha.c.j2", **common,
                      header=render.provenance(params, command, f"chacha.c: {variant.name}."),
                      levels=levels, simd=[l for l in levels if l["paths"]], scalar=scalar,
                      family=next((l["family"] for l in levels if l["paths"]), "x86"),
                      names={r: variant.name_for(r) for r in variant.rounds})
    return {"chacha.h": h, "chacha8.h": h8, "chacha.c": c}


# XKCP's parallel SnP (times2, times4, times8) on a bundle's dispatched x-N permutations
# (keccak_p1600_xN.h): one header per N, one source for every N.
SNP_XN_WIDTHS = (2, 4, 8)
SNP_XN_FILES = tuple(f"KeccakP-1600-times{n}-SnP.h" for n in SNP_XN_WIDTHS) + ("keccak_snp_xN.c",)
SPONGE_FILES = ("keccak_sponge.h", "keccak_sponge.c", "KeccakP-1600-SnP.h", "keccak_snp.c")


def keccak_sponge(env, variant, prefix, command, target, multis=(), dispatch=None,
                  keep_drop_in_names=False):
    """The functions users call, on top of whichever permutation `variant` is; KT128's leaves
    also run on the multi-state kernels `multis` where the CPU allows (checked here), or, in a
    bundle, on those of the path `dispatch` chose. `keep_drop_in_names`: XKCP's SnP names
    (KeccakP-1600-SnP.h) without the prefix."""
    params = (("target", target.name),) + variant.params + render.prefix_params(
        prefix, keep_drop_in_names)
    if dispatch:
        multi_ctx = dispatch.leaves
        params += (("kt128 leaves", ", ".join(m["name"] for m in multi_ctx) or "(scalar)"),
                   ("dispatch", dispatch.summary))
    else:
        if multis:
            params += (("kt128 leaves", ", ".join(m.name for m in multis)),)
        by_width = sorted(multis, key=lambda m: -m.instances)
        multi_ctx = [{"n": m.instances, "cpu": cpuid.features(m.cpu_needs()), "tag": f"x{m.instances}",
                      "fn": f"keccak_p1600_x{m.instances}",
                      "header": f"keccak_p1600_x{m.instances}.h", "built": "defined(RS_KT_MULTI)",
                      "isa": m.isa}
                     for m in by_width]
    ns = render.namespace(prefix)
    common = dict(prefix=prefix, ns=ns, variant_name=variant.name, multis=multi_ctx,
                  dispatch=dispatch,
                  drop_in_prefix=render.drop_in_prefix(prefix, keep_drop_in_names),
                  hashes=sponge.HASHES,
                  xofs=sponge.XOFS, turboshakes=sponge.TURBOSHAKES, kt=sponge.KT128,
                  kangaroos=sponge.KANGAROOS, sp=sponge.SP800185,
                  cshake_domain=sponge.CSHAKE_DOMAIN, encode_max=sponge.ENCODE_MAX,
                  cv_max=max(k.cv for k in sponge.KANGAROOS + sponge.SP800185),
                  batch=max(k.batch for k in sponge.KANGAROOS + sponge.SP800185),
                  mb_widths=sponge.MULTI_BUFFER_WIDTHS, **multi_buffer(multi_ctx, target.arch),
                  pad_last=f"0x{sponge.PAD_LAST:02X}")
    what = {
        "keccak_sponge.h": "keccak_sponge.h: SHA-3, SHAKE, Keccak-256, TurboSHAKE, KT128, KT256, SP 800-185.",
        "keccak_sponge.c": "keccak_sponge.c: the sponge functions.",
        "KeccakP-1600-SnP.h": "KeccakP-1600-SnP.h: XKCP's low-level interface.",
        "keccak_snp.c": "keccak_snp.c: XKCP's low-level interface on this kernel.",
    }
    files = {}
    for name in SPONGE_FILES:
        files[name] = render.render(env, name + ".j2", **common,
                                    header=render.provenance(params, command, what[name]),
                                    guard=guard(ns, name))
    return files


def keccak_snp_xn(env, prefix, command, target, keep_drop_in_names=False):
    """XKCP's KeccakP-1600-timesN-SnP.h per N and their C (keccak_snp_xN.c, every N in one
    file), on the x-N permutations of a bundle's keccak_p1600_xN.h; `keep_drop_in_names`:
    XKCP's names without the prefix."""
    params = (("target", target.name),) + render.prefix_params(prefix, keep_drop_in_names)
    ns = render.namespace(prefix)
    drop_in = render.drop_in_prefix(prefix, keep_drop_in_names)
    files = {}
    for n in SNP_XN_WIDTHS:
        name = f"KeccakP-1600-times{n}-SnP.h"
        files[name] = render.render(
            env, "KeccakP-1600-timesN-SnP.h.j2", prefix=prefix, drop_in_prefix=drop_in, n=n,
            header=render.provenance(params, command, f"{name}: XKCP's parallel low-level "
                                                      f"interface, {n} states."),
            guard=guard(ns, name))
    files["keccak_snp_xN.c"] = render.render(
        env, "keccak_snp_xN.c.j2", prefix=prefix, drop_in_prefix=drop_in, widths=SNP_XN_WIDTHS,
        header=render.provenance(params, command, "keccak_snp_xN.c: XKCP's parallel low-level "
                                                  "interface on the x-N permutations."))
    return files


def keccak_xn_dispatch(env, prefix, command, target, dispatch):
    """A bundle's keccak_p1600_xN.h/.c: the x2, x4 and x8 permutations in both layouts and
    their block loops, each on the kernel the per-CPU table picks for that many states
    (`dispatch`: None for a one-path bundle, which runs the single-state kernel)."""
    leaves = dispatch.leaves if dispatch else []
    params = ((("target", target.name), ("widths", ", ".join(map(str, sponge.MULTI_BUFFER_WIDTHS))),
               ("kernels", ", ".join(m["name"] for m in leaves) or "(single-state)"))
              + ((("dispatch", dispatch.summary),) if dispatch else ())
              + (("prefix", prefix or "(none)"),))
    widths = sponge.MULTI_BUFFER_WIDTHS
    # Per path, per width: the first kernel (1-based, widest first) of exactly that width the
    # path runs, or 0.
    exact = [[next((i for i, m in enumerate(leaves, 1) if m["n"] == n and m["cpu"] <= f), 0)
              for n in widths] for f in (dispatch.path_features if dispatch else ())]
    ns = dispatch.ns if dispatch else render.namespace(prefix)
    common = dict(prefix=prefix, ns=ns, leaves=leaves, dispatch=dispatch, widths=widths,
                  exact=exact)
    what = "the x2, x4 and x8 permutations, dispatched"
    return {
        "keccak_p1600_xN.h": render.render(
            env, "keccak_p1600_xN_dispatch.h.j2", **common,
            guard=guard(ns, "keccak_p1600_xN.h"),
            header=render.provenance(params, command, f"keccak_p1600_xN.h: {what}.")),
        "keccak_p1600_xN.c": render.render(
            env, "keccak_p1600_xN_dispatch.c.j2", **common,
            header=render.provenance(params, command, f"keccak_p1600_xN.c: {what}.")),
    }


def multi_buffer(multis, arch):
    """What the multi-buffer sponges need of the multi-state kernels: per N, the kernels to
    try (1-based indices into `multis`) and the lanes its context holds (a kernel wider than N
    runs spare copies)."""
    kernels = [(i, m["n"], m.get("isa") or m["name"].rsplit("-", 1)[1])
               for i, m in enumerate(multis, 1)]
    costs = {}
    for _, w, isa in kernels:
        c = cpu_table.per_instance_cost(arch, f"x{w}-{isa}", None)
        if c is not None:
            costs[(w, isa)] = c
    widest = max([m["n"] for m in multis] or [1])
    return {"mb_order": {n: sponge.mb_kernel_order(n, kernels, costs)
                         for n in sponge.MULTI_BUFFER_WIDTHS},
            "mb_lanes": {n: max(n, widest) for n in sponge.MULTI_BUFFER_WIDTHS}}


def _message(spec):
    kind, value = spec
    if kind == "hex":
        return {"kind": "h", "length": len(value), "hex": value.hex()}
    return {"kind": "p" if kind == "ptn" else "f", "length": value, "hex": ""}


SPONGE_TEST_FUNCTIONS = tuple(f.name for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES) \
    + ("kt128",)


def sponge_test_vectors(env, cases, sp_cases, header):
    """The sponge cases, and the KT256 / SP 800-185 ones, as C data: hex strings, decoded by
    the harness."""
    rows = [dict(c, message=_message(c["message"]), custom=_message(c["custom"]),
                 expected=c["expected"].hex(), source=c["source"].replace('"', "'"))
            for c in cases]
    sp_rows = [dict(c, message=_message(c["message"]), custom=_message(c["custom"]),
                    key=_message(c["key"]), expected=c["expected"].hex(),
                    source=c["source"].replace('"', "'")) for c in sp_cases]
    return render.render(env, "tests/sponge_vectors.h.j2", header=header, cases=rows,
                         functions=SPONGE_TEST_FUNCTIONS, sp_cases=sp_rows,
                         sp_functions=vectors.SP_FUNCTIONS,
                         max_parts=max([len(c["parts"]) for c in sp_cases] + [1]))


def sponge_xn_test_vectors(env, header):
    """The multi-buffer cases (vectors.multi_buffer_cases) as C data."""
    return render.render(env, "tests/sponge_xN_vectors.h.j2", header=header,
                         cases=vectors.multi_buffer_cases(),
                         functions=sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES,
                         widths=sponge.MULTI_BUFFER_WIDTHS, lanes=vectors.MB_LANES)


def snp_xn_test_vectors(env, header):
    """The parallel SnP's call scripts (snp_xn.scripts) as C data."""
    return render.render(env, "tests/snp_xN_vectors.h.j2", header=header,
                         scripts=snp_xn.scripts(), kinds=snp_xn.KINDS,
                         data_len=snp_xn.DATA_LEN, fill=snp_xn.FILL)


def keccak_simd(env, variant, prefix, command, target, built="", suffix="", ns=None,
                header_name=None):
    """A vector Keccak kernel: the single-state AVX-512 kernel behind the scalar API
    (keccak_p1600.h/.c), or an x-N kernel (keccak_p1600_x<N>.h/.c). In a bundle, `built` is
    the preprocessor condition under which the x-N kernel is compiled and `suffix` (_<isa>)
    ends its file and function names: the bundle's keccak_p1600_xN.h holds the plain names,
    dispatched, and the interleave helpers. `ns`, `header_name` (a single-state kernel's
    header in the folder): as keccak_scalar's."""
    ns = render.namespace(prefix) if ns is None else ns
    isa = variant.vector_isa
    params = (("target", target.name),) + variant.params + (("prefix", prefix or "(none)"),)
    common = dict(prefix=prefix, ns=ns, variant=variant, variant_name=variant.name, isa=isa,
                  built=built)
    if variant.single and variant.arm:
        return keccak_arm(env, variant.isa, variant.unroll, prefix, command, target, instances=1,
                          built=built, ns=ns, header_name=header_name)
    if variant.single:
        h = render.render(env, "keccak_p1600.h.j2", **common,
                          header=render.provenance(params, command, "keccak_p1600.h: the API."),
                          guard=guard(ns, header_name or "keccak_p1600.h"))
        c = render.render(env, "keccak_p1600_avx512.c.j2", **common,
                          header=render.provenance(params, command,
                                                   f"keccak_p1600.c: {variant.name}."),
                          rc=keccak.round_constants(),
                          xor3_imm=simd.XOR3_IMM, chi_imm=simd.CHI_IMM,
                          shift_m1=simd.shift_index(4), shift_p1=simd.shift_index(1),
                          period=lines.rounds(), regroup=lines.regroup(), parity=lines.parity_orders(),
                          pair_mask=lines.PAIR_MASK, last_mask=lines.LAST_MASK,
                          unroll=lines.body_rounds(variant.unroll),
                          loads=[lines.lane_slots(r.slope) for r in lines.rounds()],
                          stores=lines.chi_slots(), absorb_rates=lines.CONSTANT_RATES)
        return {"keccak_p1600.h": h, "keccak_p1600.c": c}
    s = keccak.schedule(variant.unroll, lane_complement=False,
                        fused_parity=simd.fused_parity(isa))
    for row in s.rows:
        for o in row.outputs:
            # The vector ops print chi as RS_VCHI(a, b, c) = a ^ (~b & c): textbook form only.
            assert o.form == keccak.ChiForm("&", True, False, False), o
    n = variant.instances
    base = f"keccak_p1600_x{n}{suffix}"
    common.update(suffix=suffix, interleave=not suffix, own_header=f"{base}.h")
    h = render.render(env, "keccak_p1600_xN.h.j2", **common, n=n, cpu=isa.cpu,
                      header=render.provenance(params, command, f"{base}.h: the x{n} API."),
                      guard=guard(ns, f"{base}.h"))
    c = render.render(env, "keccak_p1600_xN.c.j2", **common, n=n, s=s, pad_last=sponge.PAD_LAST,
                      header=render.provenance(params, command, f"{base}.c: {variant.name}."),
                      xor3_imm=simd.XOR3_IMM, chi_imm=simd.CHI_IMM,
                      **block_loop_context(n, isa.name),
                      chunk=simd.separate_chunks(isa.name, n),
                      rotations=simd.rotations_used(s), fused=simd.theta_fused(isa),
                      ops_per_round=simd.multi_ops_per_round(isa, s),
                      parity_after=simd.parity_steps(s.fused_parity),
                      columns=keccak.COLUMN_LETTERS, iota_lane=keccak.IOTA_LANE)
    return {f"{base}.h": h, f"{base}.c": c}


def block_loop_context(n, isa_name):
    """What the x-N block loops (_block_loops.j2) print: the transpose network, the groups of
    a block, the round counts that keep the states in registers, how a partial group is
    loaded, and the 128-bit chunk shuffles' immediates."""
    ctx = dict(net=simd.transpose(n), groups=simd.block_groups(n),
               absorb_starts=[keccak.MAX_ROUNDS - r for r in keccak.ABSORB_ROUNDS],
               partial=simd.partial_access(isa_name, n))
    if n > 2:
        ctx["chunk_imms"] = {k: simd.chunk_imm(k, n) for k in ("even128", "odd128")}
    else:
        ctx["chunk_imms"] = {}
    return ctx


def keccak_any(env, variant, prefix, command, target):
    """Whichever kernel family `variant` belongs to."""
    if isinstance(variant, variants.SimdKeccakVariant):
        return keccak_simd(env, variant, prefix, command, target)
    return keccak_scalar(env, variant, prefix, command, target)


ARM_ISAS = {"sha3": "the SHA3 extension", "neon": "NEON (any AArch64 CPU)",
            "simd128": "WebAssembly SIMD128 (a build with -msimd128)"}


def keccak_arm(env, isa, unroll, prefix, command, target, instances=2, built="", suffix="",
               ns=None, header_name=None):
    """An AArch64 kernel on base NEON or on the Armv8.2-A SHA3 instructions (EOR3, RAX1, XAR,
    BCAX): two states behind the x-N API (keccak_p1600_x2.h), or one behind the scalar API
    (keccak_p1600.h), from one template. `built`, `suffix`, `ns`: as keccak_simd's."""
    ns = render.namespace(prefix) if ns is None else ns
    shape = "" if instances == 1 else "x2-"
    name = f"keccakp1600-{shape}u{unroll}-{isa}"
    s = keccak.schedule(unroll, lane_complement=False, fused_parity=False)
    for row in s.rows:
        for o in row.outputs:
            # BCAX / BIC print chi as a ^ (~b & c): the textbook form only.
            assert o.form == keccak.ChiForm("&", True, False, False), o
    params = (("target", target.name), ("kernel", "keccak-p1600"), ("isa", isa),
              ("instances", instances), ("unroll", unroll), ("prefix", prefix or "(none)"))
    base = "keccak_p1600" if instances == 1 else f"keccak_p1600_x2{suffix}"
    common = dict(prefix=prefix, ns=ns, variant_name=name, n=instances, suffix=suffix,
                  interleave=not suffix, own_header=f"{base}.h",
                  guard=guard(ns, header_name or f"{base}.h"), built=built)
    if instances == 1:
        h = render.render(env, "keccak_p1600.h.j2", **common,
                          header=render.provenance(params, command, "keccak_p1600.h: the API."))
    else:
        h = render.render(env, "keccak_p1600_xN.h.j2", **common, cpu=(ARM_ISAS[isa],),
                          header=render.provenance(params, command, f"{base}.h: the x2 API."))
    c = render.render(env, "keccak_p1600_arm.c.j2", **common, s=s, isa=isa, pad_last=sponge.PAD_LAST,
                      header=render.provenance(params, command, f"{base}.c: {name}."),
                      columns=keccak.COLUMN_LETTERS, iota_lane=keccak.IOTA_LANE,
                      **block_loop_context(2, isa))
    return {f"{base}.h": h, f"{base}.c": c}


# pq-crystals' FIPS 202 interface (fips202.h, and on x86-64 the AVX2 code's fips202x4.h), on a
# bundle's block loops: files the client copies over its own, so they sit in a subfolder of
# the bundle, out of "compile every .c file of the folder" and of the API the folder declares.
PQ_CRYSTALS = "pq-crystals"
PQ_SINGLE_FILES = ("fips202.h", "fips202.c")
PQ_X4_FILES = ("fips202x4.h", "fips202x4.c")


def pq_crystals(env, prefix, command, target, amalgamated=False):
    """pq-crystals/<name> -> text: fips202.h/.c, and fips202x4.h/.c where the target has AVX2
    (keccakx4_state is four __m256i lanes); `amalgamated`: their C includes roundsmith.h, the
    one header such a folder has."""
    params = (("target", target.name), ("prefix", prefix or "(none)"))
    by_name = {f.name: f for f in sponge.HASHES + sponge.XOFS}
    common = dict(prefix=prefix, ns=render.namespace(prefix),
                  api_header="roundsmith.h" if amalgamated else "keccak_p1600.h",
                  api_header_xn="roundsmith.h" if amalgamated else "keccak_p1600_xN.h",
                  rates={n: by_name[n].rate for n in ("shake128", "shake256", "sha3_256",
                                                      "sha3_512")},
                  shake_domain=f"0x{by_name['shake128'].domain:02X}",
                  sha3_domain=f"0x{by_name['sha3_256'].domain:02X}")
    what = {"fips202.h": "pq-crystals' fips202.h (Kyber, Dilithium) on this bundle.",
            "fips202.c": "pq-crystals' FIPS 202 functions on this bundle's block loops.",
            "fips202x4.h": "pq-crystals' fips202x4.h (Kyber, Dilithium AVX2) on this bundle.",
            "fips202x4.c": "pq-crystals' four-way SHAKE on this bundle's x4 block loops."}
    names = PQ_SINGLE_FILES + (PQ_X4_FILES if target.arch == "x86_64" else ())
    return {f"{PQ_CRYSTALS}/{name}": render.render(
        env, "pq_" + name + ".j2", **common,
        header=render.provenance(params, command, f"{PQ_CRYSTALS}/{name}: {what[name]}"))
        for name in names}
