# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bundles: one vendorable folder with every code path of an architecture and a dispatch file.

The paths and what each runs come from generator/targets.py (BUNDLES); this module turns them
into the files (kernels from generator/kernels.py, the dispatch from templates/rs_dispatch.*),
optionally amalgamated into roundsmith.c + roundsmith.h, and checks the committed bundles in
out/ against a fresh generation.
"""

import dataclasses
import difflib
import os
import re
import tempfile

from ..choice import bundle_shape, cpu_table, targets, variants, wasm_shape
from ..model import cpuid
from . import kernels, outfolder, render, vendor
from ..errors import UsageError

DISPATCH_FILES = ("rs_dispatch.h", "rs_dispatch.c")
AMALGAMATION = ("roundsmith.h", "roundsmith.c")
CANONICAL_COMMAND = "python3 -m generator bundle --canonical"
CHECK_COMMAND = "python3 -m generator check"


class Dispatch:
    """What every path of a bundle runs, as the preprocessor and C conditions templates print."""

    def __init__(self, bundle, target, prefix):
        self.bundle, self.target, self.prefix = bundle, target, prefix
        # The folder's namespace, and its upper case that starts every macro (RS_PATH_AVX2).
        self.ns = render.namespace(prefix)
        self.NS = self.ns.upper()
        self.arch = {"x86_64": "x86", "aarch64": "arm", "wasm32": "wasm"}.get(target.arch)
        self.paths = []
        for i, p in enumerate(bundle.paths):
            kernels_ = [self.leaf_variant(spec) for spec in p.kt_leaves]
            cpu = sorted({f for k in kernels_ for f in self.leaf_cpu(k)}
                         | set(variants.CHACHA_ISAS[p.chacha].cpu)
                         | set(targets.KECCAK_FLAVOURS[p.keccak].cpu))
            entry = dict(name=p.name, upper=p.name.upper(), index=i,
                         macro=f"{self.NS}NO_{p.name.upper()}", requires=p.requires)
            if self.arch == "x86":
                entry["cpu"] = cpuid.features(sorted(cpu))
            else:
                entry["cpu"] = cpu
                entry["hwcap"] = sum(cpuid.HWCAPS[f] for f in cpu)
            self.paths.append(entry)
        if len(self.paths) > 1 and not self.arch:
            raise UsageError(f"target {target.name} has no dispatch: one path only")
        self.summary = ", ".join(p.name for p in bundle.paths)
        self.path_features = [set(self.path_cpu(p)) for p in bundle.paths]

    def path_cpu(self, p):
        kernels_ = [self.leaf_variant(spec) for spec in p.kt_leaves]
        return ({f for k in kernels_ for f in self.leaf_cpu(k)}
                | set(variants.CHACHA_ISAS[p.chacha].cpu)
                | set(targets.KECCAK_FLAVOURS[p.keccak].cpu))

    def leaf_variant(self, spec):
        if targets.is_arm_x2(spec):
            return targets.arm_x2(spec, self.target)
        return targets.multi_variant(spec, self.target)

    @staticmethod
    def leaf_cpu(k):
        if isinstance(k, tuple):        # (isa, unroll) of an AArch64 or wasm x2 kernel
            if k[0] == "simd128":       # chosen when compiling: nothing to ask the CPU
                return ()
            return ("asimd",) + (("sha3",) if k[0] == "sha3" else ())
        return k.cpu_needs()

    def users(self, key):
        """Indices of the paths that run kernel `key` (a leaf spec, or chacha-<level>)."""
        return [i for i, p in enumerate(self.bundle.paths)
                if key in p.kt_leaves or key in ("chacha-" + p.chacha, "keccak-" + p.keccak)
                or key in ("single-" + v for v in p.single)]

    def guards(self, key):
        """built: compiled in (some path using it is); when: the chosen path uses it."""
        idx = self.users(key)
        if 0 in idx:
            return {"built": "1", "when": "1"}
        names = [self.paths[i]["upper"] for i in idx]
        return {"built": " || ".join(f"defined({self.NS}BUILD_{n})" for n in names) or "0",
                "when": " || ".join(f"path == {self.NS}PATH_{n}" for n in names) or "0"}

    def running(self, decisions, option):
        """The C condition on `path` under which the table may take `option` of one of
        `decisions` (names of cpu_table.DECISIONS): the paths whose bit in the decision's runs has it, from the
        same data rs_dispatch.c's rs_runs is printed from."""
        idx = sorted({i for d in self.decisions if d["name"] in decisions
                      and option in d["options"]
                      for i, runs in enumerate(d["runs"])
                      if (runs >> d["options"].index(option)) & 1})
        if len(idx) == len(self.paths):
            return "1"
        return " || ".join(f"path == {self.NS}PATH_{self.paths[i]['upper']}" for i in idx) or "0"

    def chacha_guards(self, level):
        """A ChaCha level's build condition and its option number in the run-time choice."""
        levels = self.chacha_levels
        return dict(self.guards("chacha-" + level),
                    option=levels.index(level) if level in levels else -1)

    @property
    def leaf_specs(self):
        """Every multi-state kernel some path runs, widest first, once each."""
        # The widest path's order first: among kernels of one width, the one it lists first
        # leads the static order of a CPU without figures.
        specs = dict.fromkeys(s for p in reversed(self.bundle.paths) for s in p.kt_leaves)
        return sorted(specs, key=lambda s: -int(re.match(r"x(\d+)", s).group(1)))

    @property
    def leaves(self):
        """Per multi-state kernel: its width, file tag, function, header, class name and
        guards. Each one's files and symbols end with its ISA (keccak_p1600_x4_avx2.c holds
        keccak_p1600_x4_avx2), as BLAKE3 names its files; the plain names (keccak_p1600_x4)
        are keccak_p1600_xN.c's, dispatched."""
        out = []
        for spec in self.leaf_specs:
            k = self.leaf_variant(spec)
            arm = isinstance(k, tuple)
            n = 2 if arm else k.instances
            isa = k[0] if arm else k.isa
            tag = f"x{n}_{isa}"
            out.append(dict(n=n, tag=tag, name=spec, cls=f"x{n}-{isa}", isa=isa,
                            suffix=f"_{isa}", fn=f"keccak_p1600_{tag}",
                            fnf=f"keccak_f1600_{tag}", header=f"keccak_p1600_{tag}.h",
                            cpu=set(self.leaf_cpu(k)), **self.guards(spec)))
        return out

    @property
    def singles(self):
        """The single-state vector kernels some path may run (targets.SINGLE_VECTOR), with
        their variant, file tag and guards."""
        names = dict.fromkeys(v for p in self.bundle.paths for v in p.single)
        return [dict(name=n, variant=variants.simd_from_name(targets.SINGLE_VECTOR[n]),
                     header=f"keccak_p1600_{n}.h", choice=f"{self.NS}CHOICE_SINGLE_{n.upper()}",
                     **self.guards("single-" + n)) for n in names]

    @property
    def chacha_levels(self):
        """The ChaCha levels some path runs, narrowest (scalar) first."""
        order = list(variants.CHACHA_ISAS)
        return sorted({p.chacha for p in self.bundle.paths} | {"scalar"}, key=order.index)

    @property
    def decisions(self):
        """What the table decides at run time (cpu_table.DECISIONS), each with its options
        as C numbers them (0: the single-state kernel, or scalar ChaCha), which of them each
        path can run (bit o of runs[p]) and each option's build condition."""
        leaves = self.leaves
        # A path runs what it or a slower path carries, where its CPU features cover it: a
        # feature test alone would let the scalar path run SSE2 ChaCha (SSE2 is x86-64's
        # baseline) and the generic and wasm scalar paths NEON and SIMD128 kernels, which ask
        # the CPU nothing; a forced ROUNDSMITH_PATH=scalar would then run no scalar code.
        paths = self.bundle.paths
        carried = [{s for q in paths[:i + 1] for s in q.kt_leaves}
                   | {"chacha-" + q.chacha for q in paths[:i + 1]} | {"chacha-scalar"}
                   for i in range(len(paths))]
        keccak = dict(options=[cpu_table.SINGLE] + [l["cls"] for l in leaves],
                      built=["1"] + [l["built"] for l in leaves],
                      runs=[1 | sum(1 << (i + 1) for i, l in enumerate(leaves)
                                    if l["cpu"] <= f and l["name"] in c)
                            for f, c in zip(self.path_features, carried)])
        levels = self.chacha_levels
        chacha = dict(options=levels,
                      built=["1"] + [self.guards("chacha-" + l)["built"] for l in levels[1:]],
                      runs=[sum(1 << i for i, l in enumerate(levels)
                                if set(variants.CHACHA_ISAS[l].cpu) <= f and "chacha-" + l in c)
                            for f, c in zip(self.path_features, carried)])
        singles = self.singles
        single = dict(options=["scalar"] + [v["name"] for v in singles],
                      built=["1"] + [v["built"] for v in singles],
                      runs=[1 | sum(1 << (i + 1) for i, v in enumerate(singles)
                                    if v["name"] in p.single)
                            for p in self.bundle.paths])
        own = {"chacha": chacha, "single": single}
        return [dict(name=d, **own.get(d, keccak),
                     choices=self.choice_names(d, own.get(d, keccak)["options"]))
                for d in cpu_table.DECISIONS]

    def choice_names(self, decision, options):
        """The constants naming decision's options in rs_dispatch.h, without the namespace:
        CHOICE_<OPTION> for the Keccak kernels every multi-state decision shares (CHOICE_X1,
        CHOICE_X4_AVX2), CHOICE_<DECISION>_<OPTION> for a decision with options of its own
        (CHOICE_CHACHA_AVX2); each one's value is its option number."""
        own = "" if options[0] == cpu_table.SINGLE else decision.upper() + "_"
        return ["CHOICE_" + own + re.sub(r"\W", "_", o.upper()) for o in options]

    @property
    def choices(self):
        """Every (constant, value) of choice_names, once each; a name never means two
        numbers."""
        out = {}
        for d in self.decisions:
            for value, name in enumerate(d["choices"]):
                assert out.setdefault(name, value) == value, (name, value, out[name])
        return list(out.items())

    def table(self, directory=None):
        """The per-CPU rows (generator/cpu_table.py) from the profiles in generator/profiles/
        (or `directory`), per compiler section, as option numbers per decision."""
        decisions = self.decisions
        # cpu_table takes options widest first, the single-state one (or scalar) last.
        options = {d["name"]: tuple(reversed(d["options"][1:])) + (d["options"][0],)
                   if d["name"] == "chacha" else tuple(d["options"][1:]) + (d["options"][0],)
                   for d in decisions}
        unrolls = {}
        for l in self.leaves:
            m = re.search(r"-u(\d+)-", l["name"])
            unrolls[l["cls"]] = int(m.group(1)) if m else targets.DEFAULT_SIMD_UNROLL
        table = cpu_table.build(self.target.arch, options, unrolls, directory)

        def ids(orders):
            return [[d["options"].index(o) for o in order]
                    for d, order in zip(decisions, orders)]
        sections = []
        for cond, cc in cpu_table.COMPILER_SECTIONS:
            # source and figures (whose compiler's): the profiles page says where a row's
            # order came from; the C table does not need them.
            rows = [dict(vendor=r.vendor, family=r.family, model=r.model, name=r.label,
                         order=ids(r.orders), source=r.source, figures=r.compiler)
                    for r in table.rows.get(cc, ())]
            sections.append(dict(cond=cond, compiler=cc, rows=rows,
                                 default=ids(table.default[cc]),
                                 default_name=cpu_table.default_label(table, cc)))
        return dict(sections=sections, other=ids(table.default[""]),
                    other_name=cpu_table.default_label(table, ""), sources=table.sources,
                    width=max(len(d["options"]) for d in decisions))

    @property
    def any_multi(self):
        return " || ".join(l["built"] for l in self.leaves) or "0"

    @property
    def any_chacha(self):
        return " || ".join(self.guards("chacha-" + p.chacha)["built"]
                           for p in self.bundle.paths if p.chacha != "scalar") or "0"


def select(bundle, families, chacha_rounds=None):
    """The bundle cut down to the kernel families asked for (variants.FAMILIES) and the ChaCha
    round counts: each path keeps only what runs them, and a path left running the same
    kernels as the one before it goes (a chacha-only x86_64 bundle keeps its four paths, a
    keccak-only one drops sse2)."""
    paths = []
    for p in bundle.paths:
        q = dataclasses.replace(
            p, keccak=p.keccak if "keccak" in families else "scalar",
            kt_leaves=p.kt_leaves if "keccak" in families else (),
            chacha=p.chacha if "chacha" in families else "scalar",
            requires=p.requires if "keccak" in families else "")
        if paths and (q.keccak, q.kt_leaves, q.chacha) == (paths[-1].keccak,
                                                           paths[-1].kt_leaves,
                                                           paths[-1].chacha):
            continue
        paths.append(q)
    return dataclasses.replace(bundle, paths=tuple(paths), families=tuple(families),
                               chacha_rounds=tuple(chacha_rounds or variants.CHACHA_ROUNDS))


def files(bundle, prefix, command, cc_id=targets.CANONICAL_CC, keep_drop_in_names=False):
    """name -> text of one bundle's sources and headers (kernels, dispatch, roundsmith.h and
    the self-test); folder() adds the license and the build-system files.
    `keep_drop_in_names`: under a prefix, the drop-ins keep their peers' names
    (render.drop_in_prefix)."""
    keep = keep_drop_in_names
    target = targets.get(bundle.target)
    env = render.environment()
    # Each path's kernels per the canonical machine's tuned profile (generator/choice/bundle_shape.py).
    bundle, keccak = bundle_shape.shaped(bundle, cc_id)
    families = bundle.families
    dispatch = Dispatch(bundle, target, prefix) if len(bundle.paths) > 1 else None
    out = {}
    if "keccak" in families:
        flavours = list(dict.fromkeys(p.keccak for p in bundle.paths))
        if len(flavours) == 1:
            out.update(scalar_kernel(env, bundle, keccak, prefix, command, target))
        else:
            out.update(keccak_flavours(env, bundle, keccak, prefix, command, target, dispatch,
                                       flavours))
        if dispatch:
            out.update(single_kernels(env, prefix, command, target, dispatch))
        out.update(kernels.keccak_sponge(env, keccak, prefix, command, target,
                                         dispatch=dispatch, keep_drop_in_names=keep))
        out.update(kernels.keccak_xn_dispatch(env, prefix, command, target, dispatch))
        out.update(kernels.keccak_snp_xn(env, prefix, command, target, keep))
        if target.arch != "wasm32":
            out.update(kernels.pq_crystals(env, prefix, command, target))
    widths, levels = [], {}
    if "chacha" in families:
        chacha = chacha_files(env, bundle, target, prefix, command, dispatch, cc_id, keep)
        widths = chacha.pop("widths")
        levels = chacha.pop("levels")
        out.update(chacha)
    if dispatch:
        for leaf in dispatch.leaves:
            k = dispatch.leaf_variant(leaf["name"])
            if isinstance(k, tuple):
                isa, unroll = k
                out.update(kernels.keccak_arm(env, isa, unroll, prefix, command, target,
                                              built=leaf["built"], suffix=leaf["suffix"],
                                              ns=dispatch.ns))
            else:
                out.update(kernels.keccak_simd(env, k, prefix, command, target,
                                               built=leaf["built"], suffix=leaf["suffix"],
                                               ns=dispatch.ns))
        params = (("target", target.name), ("bundle", bundle.name),
                  ("paths", dispatch.summary)) + render.prefix_params(prefix, keep)
        params += tuned_by(target)
        common = dict(prefix=prefix, ns=dispatch.ns, arch=dispatch.arch, paths=dispatch.paths,
                      decisions=dispatch.decisions, choices=dispatch.choices,
                      table=dispatch.table())
        out["rs_dispatch.h"] = render.render(
            env, "rs_dispatch.h.j2", **common, guard=kernels.guard(dispatch.ns, "rs_dispatch.h"),
            header=render.provenance(params, command, "rs_dispatch.h: run-time path choice."))
        out["rs_dispatch.c"] = render.render(
            env, "rs_dispatch.c.j2", **common,
            header=render.provenance(params, command, "rs_dispatch.c: run-time path choice."))
    params = (("target", target.name), ("bundle", bundle.name),
              ("paths", ", ".join(p.name for p in bundle.paths))) + render.prefix_params(
                  prefix, keep) + tuned_by(target)
    if not dispatch:
        vendor.single_path(env, out, prefix, command, params, bundle.paths[0].name)
    vendor.self_test(env, out, prefix, command, params, leaves=self_test_leaves(dispatch),
                     dispatch=bool(dispatch),
                     chacha_rounds=bundle.chacha_rounds,
                     chacha_width=max(widths, default=0),
                     singles=self_test_singles(dispatch, "keccak" in families),
                     chacha_levels=self_test_levels(dispatch, levels),
                     keep_drop_in_names=keep)
    if target.arch == "wasm32":
        vendor.wasm_module(env, out, prefix, command, params, bundle.chacha_rounds, keep)
    return out


def tuned_by(target):
    """The provenance line naming the profiles that shaped a wasm32 bundle (native bundles
    name theirs in rs_dispatch.c's table)."""
    if target.arch != "wasm32":
        return ()
    return (("shapes", wasm_shape.shapes().provenance()),)


def self_test_leaves(dispatch):
    """The multi-state kernels the self-test runs, each under its own name, on the paths whose
    table may take it (the multi-state decisions share one list of options and its runs)."""
    if not dispatch:
        return []
    out = []
    for leaf in dispatch.leaves:
        out.append(dict(spec=leaf["name"], n=leaf["n"], built=leaf["built"],
                        when=dispatch.running(cpu_table.DECISIONS, leaf["cls"]),
                        header=leaf["header"], fn=leaf["fn"], fnf=leaf["fnf"]))
    return out


def self_test_singles(dispatch, has_keccak):
    """The single-state kernels the self-test runs under their own names: each scalar flavour
    on the paths keccak_p1600.c gives it, each vector kernel where the "single" decision may
    take it. Each a dict of name, prefix (of its functions), header, built and when."""
    if not (dispatch and has_keccak):
        return []
    out = []
    flavours = dict.fromkeys(p.keccak for p in dispatch.bundle.paths)
    if len(flavours) > 1:
        for name in flavours:
            idx = dispatch.users("keccak-" + name)
            when = ("1" if len(idx) == len(dispatch.paths) else
                    " || ".join(f"path == {dispatch.NS}PATH_{dispatch.paths[i]['upper']}"
                                for i in idx))
            out.append(dict(name=name, fn=f"{dispatch.ns}{name}_", header=f"keccak_p1600_{name}.h",
                            built=dispatch.guards("keccak-" + name)["built"], when=when))
    for v in dispatch.singles:
        out.append(dict(name=v["name"], fn=f"{dispatch.ns}{v['name']}_", header=v["header"],
                        built=v["built"], when=dispatch.running(("single",), v["name"])))
    return out


def self_test_levels(dispatch, levels):
    """The ChaCha levels the self-test runs directly: each a dict of isa, option (its number
    in the "chacha" decision), built, when (the paths whose table may take it) and shapes (the
    paths of its level functions, one entry per compiler's chacha.c)."""
    if not dispatch or not levels:
        return []
    out = []
    for isa in dispatch.chacha_levels:
        g = dispatch.chacha_guards(isa)
        out.append(dict(isa=isa, option=g["option"], built=g["built"],
                        when=dispatch.running(("chacha",), isa), shapes=levels.get(isa, ())))
    return out


def folder(bundle, prefix, command, cc_id=targets.CANONICAL_CC, amalgamated=False,
           keep_drop_in_names=False):
    """Every file of one bundle folder: files(), optionally amalgamated, then the license and
    the build-system files listing what is left."""
    out = files(bundle, prefix, command, cc_id, keep_drop_in_names)
    if amalgamated:
        # What is not C (wasm32's roundsmith.mjs and its companions) stays as it is.
        # Nor is what a client copies over its own files (a subfolder's), which then includes
        # the one header left.
        out = dict(amalgamate(out, command, prefix),
                   **{n: t for n, t in out.items() if "/" in n or not n.endswith((".c", ".h"))})
        if any("/" in n for n in out):
            out.update(kernels.pq_crystals(render.environment(), prefix, command,
                                           targets.get(bundle.target), amalgamated=True))
    return vendor.build_files(render.environment(), out, prefix, command,
                              (("bundle", bundle.name),)
                              + render.prefix_params(prefix, keep_drop_in_names),
                              f"roundsmith {bundle.description}")


# ChaCha's measured best shape differs by compiler (targets.DEFAULT_CHACHA: gcc spills two
# interleaved block sets, clang gains 15% from them), and a bundle is compiled by whichever
# compiler its user has: chacha.c carries clang's choice and everyone else's, picked by the
# preprocessor.
CHACHA_BY_COMPILER = (("defined(__clang__)", "clang"),)


def per_compiler(branches, default):
    """One file holding a text per compiler, chosen by the preprocessor; `branches` are
    (condition, text) pairs tried in order, `default` is for every other compiler."""
    if not branches:
        return default
    text = "".join(f"{'#if' if i == 0 else '#elif'} {cond}\n{body}"
                   for i, (cond, body) in enumerate(branches))
    return (f"{render.SPDX_C}/* One kernel shape per compiler (the measured best of each), "
            f"chosen by the preprocessor. */\n{text}#else\n{default}#endif\n")


def chacha_files(env, bundle, target, prefix, command, dispatch, cc_id, keep_drop_in_names=False):
    """chacha.h, chacha8.h, chacha.c, and under "widths" the block counts of every shape
    chacha.c holds (the self-test runs past the widest), under "levels" each level's paths
    per compiler branch (kernels.chacha_level_shapes)."""
    widest = max((p.chacha for p in bundle.paths),
                 key=lambda isa: list(variants.CHACHA_ISAS).index(isa))
    rounds = bundle.chacha_rounds
    widths, levels = [], {}

    def render_for(compiler):
        chacha = bundle_shape.chacha_for(bundle, compiler)
        if chacha.isa != widest:
            chacha = variants.ChachaVariant(isa=widest, schedule=chacha.schedule,
                                            rotate=targets.level_rotation(
                                                variants.CHACHA_ISAS[widest], chacha.rotate))
        chacha = dataclasses.replace(chacha, rounds=tuple(rounds))
        widths.append(chacha.width)
        for shape in kernels.chacha_level_shapes(chacha):
            levels.setdefault(shape["isa"], [])
            if shape not in levels[shape["isa"]]:
                levels[shape["isa"]].append(shape)
        return kernels.chacha_sources(env, chacha, prefix, command, target, dispatch=dispatch,
                                      keep_drop_in_names=keep_drop_in_names)

    out = render_for(cc_id)
    branches = [(cond, render_for(cc)["chacha.c"]) for cond, cc in CHACHA_BY_COMPILER
                if cc != cc_id]
    branches = [(cond, text) for cond, text in branches if text != out["chacha.c"]]
    out["chacha.c"] = per_compiler(branches, out["chacha.c"])
    out["widths"] = widths
    out["levels"] = levels
    return out


def scalar_kernel(env, bundle, keccak, prefix, command, target, **kw):
    """keccak_p1600.h/.c of the scalar kernel, with the kernel each compiler in
    targets.BUNDLE_COMPILER_KECCAK gets in a branch of its own (tcc: the x86-64 inline
    assembly)."""
    out = kernels.keccak_scalar(env, keccak, prefix, command, target, **kw)
    branches = []
    for cond, cc, arch in targets.BUNDLE_COMPILER_KECCAK.get(bundle.name, ()):
        other = targets.TARGETS[arch]
        v = targets.default_keccak(other, cc)
        branches.append((cond, kernels.keccak_scalar(env, v, prefix, command, other,
                                                     **kw)["keccak_p1600.c"]))
    out["keccak_p1600.c"] = per_compiler(branches, out["keccak_p1600.c"])
    return out


def single_kernels(env, prefix, command, target, dispatch):
    """keccak_p1600_<name>.h/.c of each single-state vector kernel (its functions named
    <ns><name>_keccak_p1600...), which keccak_p1600.c runs where the table's "single"
    decision takes it."""
    out = {}
    for v in dispatch.singles:
        files = kernels.keccak_simd(env, v["variant"], f"{dispatch.ns}{v['name']}_", command,
                                    target, built=v["built"], ns=dispatch.ns,
                                    header_name=v["header"])
        out[v["header"]] = files["keccak_p1600.h"]
        out[f"keccak_p1600_{v['name']}.c"] = files["keccak_p1600.c"].replace(
            '#include "keccak_p1600.h"', f'#include "{v["header"]}"')
    return out


def keccak_flavours(env, bundle, keccak, prefix, command, target, dispatch, flavours):
    """keccak_p1600.h/.c: the API, dispatching to one copy of the scalar kernel per flavour
    (keccak_p1600_<flavour>.h/.c, its functions named <ns><flavour>_keccak_p1600...: internal
    names of a bundle are in its namespace, render.namespace)."""
    ns = render.namespace(prefix)
    out = {}
    ctx = []
    for name in flavours:
        flavour = targets.KECCAK_FLAVOURS[name]
        shape = bundle_shape.flavour_shape(keccak, flavour)
        guards = dispatch.guards("keccak-" + name)
        built = "" if guards["built"] == "1" else guards["built"]
        header = f"keccak_p1600_{name}.h"
        kw = dict(built=built, isa_target=flavour.isa_target, ns=ns, header_name=header)
        # A flavour every build compiles is the one a compiler without the vector paths
        # runs: it gets that compiler's own kernel where one is named.
        files = (scalar_kernel(env, bundle, shape, f"{ns}{name}_", command, target,
                               **kw) if not built
                 else kernels.keccak_scalar(env, shape, f"{ns}{name}_", command,
                                            target, **kw))
        out[header] = files["keccak_p1600.h"]
        out[f"keccak_p1600_{name}.c"] = files["keccak_p1600.c"].replace(
            '#include "keccak_p1600.h"', f'#include "{header}"')
        ctx.append(dict(name=name, header=header, **guards,
                        paths=[dispatch.paths[i]["name"] for i in dispatch.users("keccak-" + name)]))
    out["keccak_p1600.h"] = kernels.keccak_scalar(env, keccak, prefix, command,
                                                  target)["keccak_p1600.h"]
    params = (("target", target.name), ("flavours", ", ".join(flavours)),
              ("variant", keccak.name), ("prefix", prefix or "(none)"))
    out["keccak_p1600.c"] = render.render(
        env, "keccak_p1600_dispatch.c.j2", prefix=prefix, ns=ns, flavours=ctx[::-1],
        fallback=flavours[0], singles=dispatch.singles, NS=dispatch.NS,
        header=render.provenance(params, command, "keccak_p1600.c: the API, dispatched."))
    return out


# Headers in the order they must appear in an amalgamation (each after what it includes).
HEADER_ORDER = ("rs_dispatch.h", "keccak_p1600.h", "keccak_p1600_xN.h", "keccak_sponge.h",
                "KeccakP-1600-SnP.h", "KeccakP-1600-times2-SnP.h", "KeccakP-1600-times4-SnP.h",
                "KeccakP-1600-times8-SnP.h",
                "chacha.h", "chacha8.h", "roundsmith.h")
GCC_ONLY = "#if defined(__GNUC__) && !defined(__clang__) && !defined(__TINYC__)\n"
GCC_PUSH = GCC_ONLY + "#pragma GCC push_options\n#endif\n"
GCC_POP = GCC_ONLY + "#pragma GCC pop_options\n#endif\n"
LOCAL_INCLUDE = re.compile(r'^#include "([^"]+)"\n', re.M)


def amalgamate(bundle_files, command, prefix=""):
    """roundsmith.h (every header) and roundsmith.c (every source), local includes dropped.

    Each source goes in as its own block. The files' file-scope helpers share names: each
    block first undefines the RS_* macros the previous ones defined, and its lowercase rs_*
    identifiers (file-local by the templates' convention) get the block's number, rs1_ ...,
    except those a header declares. A subfolder's files (pq-crystals/: a client's, copied over
    its own) stay out."""
    bundle_files = {n: t for n, t in bundle_files.items() if "/" not in n}
    headers = sorted((n for n in bundle_files if n.endswith(".h")),
                     key=lambda n: (HEADER_ORDER.index(n) if n in HEADER_ORDER
                                    else len(HEADER_ORDER), n))
    sources = sorted(n for n in bundle_files if n.endswith(".c"))
    intro = render.provenance((("files", len(bundle_files)),), command,
                              "{}: the bundle amalgamated.")
    guard = kernels.guard(render.namespace(prefix), "roundsmith_amalgamation.h")
    h = [intro.format("roundsmith.h"), f"#ifndef {guard}\n#define {guard}\n"]
    for name in headers:
        h.append(f"\n/* ---- {name} ---- */\n" + LOCAL_INCLUDE.sub("", bundle_files[name]))
    h.append("\n#endif\n")
    c = [intro.format("roundsmith.c"), '#include "roundsmith.h"\n']
    defined = set()
    public = set(re.findall(r"\brs_\w+", "".join(bundle_files[n] for n in headers)))
    for k, name in enumerate(sources, 1):
        text = LOCAL_INCLUDE.sub("", bundle_files[name])
        text = re.sub(r"\brs_(\w+)", lambda m: m.group(0) if m.group(0) in public
                      else f"rs{k}_{m.group(1)}", text)
        undefs = "".join(f"#undef {m}\n" for m in sorted(defined))
        # A file-wide `#pragma GCC target` (the scalar kernel's general-regs-only, the
        # SHA3 kernel's extension) must end with its file.
        c.append(f"\n/* ---- {name} ---- */\n{undefs}{GCC_PUSH}{text}{GCC_POP}")
        defined |= set(re.findall(r"^#define (RS_\w+)", text, re.M))
    return {"roundsmith.h": "".join(h), "roundsmith.c": "".join(c)}


def canonical_files(root):
    """out/<bundle>/ name -> text, for every committed bundle."""
    return {os.path.join(root, name): folder(targets.BUNDLES[name], "", CANONICAL_COMMAND)
            for name in targets.CANONICAL_BUNDLES}


def check(out_root):
    """Regenerate the committed bundles into a temporary folder and diff them against out/.
    Returns the number of differing files (0: current)."""
    bad = 0
    with tempfile.TemporaryDirectory(prefix="roundsmith-check-") as tmp:
        for folder, fresh in canonical_files(tmp).items():
            outfolder.write_tree(folder, fresh, CANONICAL_COMMAND)
            fresh = outfolder.with_manifest(fresh, CANONICAL_COMMAND)
            committed = os.path.join(out_root, os.path.basename(folder))
            have = set(outfolder.listing(committed)) if os.path.isdir(committed) else set()
            for name in sorted(have | set(fresh)):
                rel = os.path.join(os.path.basename(out_root), os.path.basename(folder), name)
                if name not in fresh:
                    print(f"{rel}: not generated any more")
                    bad += 1
                    continue
                try:
                    with open(os.path.join(committed, name)) as f:
                        old = f.read()
                except OSError:
                    print(f"{rel}: missing")
                    bad += 1
                    continue
                if old != fresh[name]:
                    bad += 1
                    diff = list(difflib.unified_diff(old.splitlines(True),
                                                     fresh[name].splitlines(True),
                                                     rel + " (committed)", rel + " (generated)"))
                    print("".join(diff[:40]), end="")
                    if len(diff) > 40:
                        print(f"... ({len(diff) - 40} more diff lines)")
    return bad
