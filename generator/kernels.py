"""What each kernel family generates: a variant in, named file texts out.

This is the seam between the model (the maths, as data) and the templates (printing): it
computes the few presentation facts a template needs (header guard, declared names) and
leaves every decision about the algorithm to the model modules.
"""

from . import keccak, render, sponge

KECCAK_FILES = ("keccak_p1600.h", "keccak_p1600.c")


def guard(prefix, filename):
    return "RS_" + (prefix + filename).upper().replace(".", "_").replace("-", "_")


def keccak_scalar(env, variant, prefix, command, target):
    s = keccak.schedule(variant.unroll, variant.lane_complement,
                        fused_parity=(variant.parity == "fused"))
    params = (("target", target.name),) + variant.params + (("prefix", prefix or "(none)"),)
    negated = sorted({copy for row in s.rows for copy, _ in row.negated})
    common = dict(prefix=prefix, variant=variant, variant_name=variant.name)
    h = render.render(env, "keccak_p1600.h.j2", **common,
                      header=render.provenance(params, command, "keccak_p1600.h: the API."),
                      guard=guard(prefix, "keccak_p1600.h"))
    c = render.render(env, "keccak_p1600_scalar.c.j2", **common,
                      header=render.provenance(params, command,
                                               f"keccak_p1600.c: {variant.name}."),
                      s=s, negated=negated, nots=keccak.nots_per_round(s.pattern),
                      columns=keccak.COLUMN_LETTERS, iota_lane=keccak.IOTA_LANE,
                      absorb_starts=[keccak.MAX_ROUNDS - r for r in keccak.ABSORB_ROUNDS])
    return {"keccak_p1600.h": h, "keccak_p1600.c": c}


SPONGE_FILES = ("keccak_sponge.h", "keccak_sponge.c", "KeccakP-1600-SnP.h", "keccak_snp.c")


def keccak_sponge(env, variant, prefix, command, target):
    """The functions users call, on top of whichever permutation `variant` is."""
    params = (("target", target.name),) + variant.params + (("prefix", prefix or "(none)"),)
    common = dict(prefix=prefix, variant_name=variant.name, hashes=sponge.HASHES,
                  xofs=sponge.XOFS, turboshakes=sponge.TURBOSHAKES, kt=sponge.KT128,
                  pad_last=f"0x{sponge.PAD_LAST:02X}")
    what = {
        "keccak_sponge.h": "keccak_sponge.h: SHA-3, SHAKE, Keccak-256, TurboSHAKE, KT128.",
        "keccak_sponge.c": "keccak_sponge.c: the sponge functions.",
        "KeccakP-1600-SnP.h": "KeccakP-1600-SnP.h: XKCP's low-level interface.",
        "keccak_snp.c": "keccak_snp.c: XKCP's low-level interface on this kernel.",
    }
    files = {}
    for name in SPONGE_FILES:
        files[name] = render.render(env, name + ".j2", **common,
                                    header=render.provenance(params, command, what[name]),
                                    guard=guard(prefix, name))
    return files


def _message(spec):
    kind, value = spec
    if kind == "hex":
        return {"kind": "h", "length": len(value), "hex": value.hex()}
    return {"kind": "p" if kind == "ptn" else "f", "length": value, "hex": ""}


SPONGE_TEST_FUNCTIONS = tuple(f.name for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES) \
    + ("kt128",)


def sponge_test_vectors(env, cases, header):
    """The sponge cases as C data: hex strings, decoded by the harness."""
    rows = [dict(c, message=_message(c["message"]), custom=_message(c["custom"]),
                 expected=c["expected"].hex(), source=c["source"].replace('"', "'"))
            for c in cases]
    return render.render(env, "tests/sponge_vectors.h.j2", header=header, cases=rows,
                         functions=SPONGE_TEST_FUNCTIONS)
