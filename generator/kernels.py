"""What each kernel family generates: a variant in, named file texts out.

This is the seam between the model (the maths, as data) and the templates (printing): it
computes the few presentation facts a template needs (header guard, declared names) and
leaves every decision about the algorithm to the model modules.
"""

from . import chacha, keccak, render, targets

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


CHACHA_FILES = ("chacha.h", "chacha8.h", "chacha.c")


def chacha_sources(env, variant, prefix, command, target):
    """chacha.h (the API), chacha8.h (the chiapos header name), chacha.c (every level)."""
    params = (("target", target.name),) + variant.params + (("prefix", prefix or "(none)"),)
    levels = []
    for level in targets.chacha_levels(variant.isa):
        rotate = targets.level_rotation(level, variant.rotate)
        k = chacha.kernel(variant.schedule, rotate)
        # Interleaved block sets only in the asked-for level's widest path; tails stay single.
        shapes = [(w, 1) for w in level.widths]
        if level.name == variant.isa and variant.states > 1:
            shapes.insert(0, (level.widths[0], variant.states))
        first_scalar, first_vector = chacha.split_uniform(k.ops)
        paths = [dict(width=w * n, lanes=w, states=n, ops=chacha.interleave(k.ops, n),
                      first_scalar=first_scalar,
                      first_vector=chacha.interleave(first_vector, n),
                      vtype=targets.VECTOR_TYPES[w][0], p=targets.VECTOR_TYPES[w][1],
                      si=targets.VECTOR_TYPES[w][2]) for w, n in shapes]
        levels.append(dict(isa=level.name, attribute=level.attribute, cpu=level.cpu,
                           rotate=rotate, kernel=k, paths=paths))
    scalar = chacha.kernel(variant.schedule if variant.isa == "scalar"
                           else chacha.ONE_BLOCK_SCHEDULE, "shift")
    params += (("one_block_schedule", scalar.schedule),)
    common = dict(prefix=prefix, variant=variant, rounds=variant.rounds)
    h = render.render(env, "chacha.h.j2", **common,
                      header=render.provenance(params, command, "chacha.h: the API."),
                      guard=guard(prefix, "chacha.h"))
    h8 = render.render(env, "chacha8.h.j2", **common,
                       header=render.provenance(params, command,
                                                "chacha8.h: the chiapos header name."),
                       guard=guard(prefix, "chacha8.h"))
    c = render.render(env, "chacha.c.j2", **common,
                      header=render.provenance(params, command, f"chacha.c: {variant.name}."),
                      levels=levels, simd=[l for l in levels if l["paths"]], scalar=scalar,
                      names={r: variant.name_for(r) for r in variant.rounds})
    return {"chacha.h": h, "chacha8.h": h8, "chacha.c": c}
