"""What each kernel family generates: a variant in, named file texts out.

This is the seam between the model (the maths, as data) and the templates (printing): it
computes the few presentation facts a template needs (header guard, declared names) and
leaves every decision about the algorithm to the model modules.
"""

from . import keccak, render

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
                      columns=keccak.COLUMN_LETTERS, iota_lane=keccak.IOTA_LANE)
    return {"keccak_p1600.h": h, "keccak_p1600.c": c}
