# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What makes a generated folder a product beyond its kernels: the one header (roundsmith.h),
the embedded self-test (rs_selftest.c, its answers from generator/selftest.py), the path
report of a folder without run-time dispatch, the license, and the build-system files
(CMake, Meson, pkg-config). `generate` and `bundle` both end here.
"""

import re

from .. import VERSION
from . import kernels, render, selftest
from ..model import sponge_maths as sponge, vectors

# The headers roundsmith.h gathers, in this order, when the folder has them: the public API.
# (A bundle's single-state flavour headers declare internal names only, in the folder's
# namespace; its multi-state
# kernels' headers, keccak_p1600_x<N>_<isa>.h, are public for a caller that pins one.)
PUBLIC_HEADERS = ("rs_dispatch.h", "keccak_p1600.h", "keccak_p1600_xN.h", "keccak_sponge.h",
                  "KeccakP-1600-SnP.h", "KeccakP-1600-times2-SnP.h", "KeccakP-1600-times4-SnP.h",
                  "KeccakP-1600-times8-SnP.h", "chacha.h")
PUBLIC_MULTI = re.compile(r"keccak_p1600_x\d+(_[a-z0-9]+)?\.h")
LICENSE = "LICENSE-CC0"


def names(prefix):
    """The files every generated folder has besides its kernels (a dispatching bundle's
    rs_dispatch.h/.c come from its dispatch, the others' from single_path)."""
    return ("roundsmith.h", "rs_selftest.c", "rs_dispatch.h", "rs_dispatch.c", LICENSE,
            "CMakeLists.txt", "meson.build", f"{library(prefix)}.pc.in")


def library(prefix):
    """The library name, and every build-system name of the folder: CMake target <it>::<it>
    and find_package(<it>), Meson dependency <it> (subproject folder <it>, variable <it>_dep),
    pkg-config module <it>, headers under include/<it>/. Two bundles made with different
    prefixes share no name, so they build in one project and install into one prefix."""
    return f"{prefix}roundsmith"


def single_path(env, files, prefix, command, params, name):
    """rs_dispatch.h/.c of a folder with one code path: rs_path_name() answers `name`."""
    paths = [dict(name=name, upper=re.sub(r"\W", "_", name.upper()), index=0)]
    ns = render.namespace(prefix)
    common = dict(prefix=prefix, ns=ns, arch=None, paths=paths)
    files["rs_dispatch.h"] = render.render(
        env, "rs_dispatch.h.j2", **common, guard=kernels.guard(ns, "rs_dispatch.h"),
        header=render.provenance(params, command, "rs_dispatch.h: the code path."))
    files["rs_dispatch.c"] = render.render(
        env, "rs_dispatch.c.j2", **common,
        header=render.provenance(params, command, "rs_dispatch.c: the code path."))


def _rows(checks, want_bytes, want_fnv):
    """Checks as the template reads them, each given its place in the expected-value tables."""
    rows = []
    for c in checks:
        row = dict(code=c.code, name=c.name, kind=c.kind, p=c.p, expected=c.expected,
                   macro=c.macro, offset=len(want_bytes), slot=len(want_fnv))
        if c.expected:
            want_bytes += c.expected
        else:
            want_fnv.append(c.fnv)
        rows.append(row)
    return rows


def self_test(env, files, prefix, command, params, *, leaves=(), dispatch=False,
              chacha_rounds=(), chacha_width=0, singles=(), chacha_levels=(),
              keep_drop_in_names=False):
    """rs_selftest.c and roundsmith.h. `leaves`: the multi-state kernels the self-test runs
    under their own names, each a dict of spec, n, header, fn and fnf (its keccak_p1600 and
    keccak_f1600 names), built (a preprocessor condition) and when (a C condition on `path`);
    `singles`: the single-state kernels likewise (name, fn: their functions' prefix, header,
    built, when); `chacha_levels`: ChaCha's levels (isa, option, built, when, shapes: their
    paths per compiler branch, from which the block counts that reach each are derived);
    `keep_drop_in_names`: the drop-ins (render.drop_in_prefix) are called unprefixed."""
    has_keccak = "keccak_p1600.h" in files
    has_chacha = "chacha.h" in files
    want_bytes, want_fnv = bytearray(), []
    keccak = _rows(selftest.keccak_checks(), want_bytes, want_fnv) if has_keccak else []
    leaf_rows = []
    for leaf in leaves:
        check = _rows([selftest.leaf_check(leaf["spec"], leaf["n"])], want_bytes, want_fnv)[0]
        leaf_rows.append(dict(leaf, check=check, tag=re.sub(r"\W", "_", leaf["spec"])))
    single_rows, single, xn, snp_xn = [], None, [], []
    if has_keccak:
        for k in singles:
            check = _rows([selftest.single_check(k["name"])], want_bytes, want_fnv)[0]
            single_rows.append(dict(k, check=check, tag=k["name"]))
        single = dict(fn=prefix, tag="api",
                      check=_rows([selftest.single_check()], want_bytes, want_fnv)[0])
        if "keccak_p1600_xN.h" in files:
            for n in kernels.SNP_XN_WIDTHS:
                xn.append(dict(fn=f"keccak_p1600_x{n}", fnf=f"keccak_f1600_x{n}", tag="api",
                               check=_rows([selftest.xn_check(n)], want_bytes, want_fnv)[0]))
        if "keccak_snp_xN.c" in files:
            snp_xn = _rows([selftest.snp_xn_check(n) for n in kernels.SNP_XN_WIDTHS],
                           want_bytes, want_fnv)
    level_rows, counts = [], []
    if has_chacha:
        for lv in chacha_levels:
            shapes = lv["shapes"] or [dict(widths=(), rows=())]
            n = selftest.chacha_block_counts(shapes)
            checks = _rows(selftest.chacha_level_checks(lv["isa"], tuple(chacha_rounds), n),
                           want_bytes, want_fnv)
            level_rows.append(dict(lv, counts=n, first=len(counts), checks=checks))
            counts += n
    width = max(chacha_width, selftest.MIN_CHACHA_WIDTH)
    chacha = (_rows(selftest.chacha_checks(chacha_rounds, width), want_bytes, want_fnv)
              if has_chacha else [])
    every = (keccak + [l["check"] for l in leaf_rows] + [k["check"] for k in single_rows]
             + ([single["check"]] if single else []) + [l["check"] for l in xn] + snp_xn
             + [c for lv in level_rows for c in lv["checks"]] + chacha)
    codes = sorted({c["code"]: c for c in every}.values(), key=lambda c: c["code"])
    ns = render.namespace(prefix)
    files["rs_selftest.c"] = render.render(
        env, "rs_selftest.c.j2", prefix=prefix, ns=ns, dispatch=dispatch,
        drop_in_prefix=render.drop_in_prefix(prefix, keep_drop_in_names),
        header=render.provenance(params, command, "rs_selftest.c: the embedded self-test."),
        seed=selftest.SEED, want_bytes=bytes(want_bytes), want_fnv=want_fnv,
        fnv_offset=vectors.FNV_OFFSET, fnv_prime=vectors.FNV_PRIME,
        has_keccak=has_keccak, keccak=keccak, leaves=leaf_rows, chacha=chacha,
        singles=single_rows, single=single, xn=xn, snp_xn=snp_xn,
        single_rounds=selftest.SINGLE_ROUNDS,
        squeeze_calls=[dict(c, returns=r) for c, r in zip(selftest.SQUEEZE_CALLS,
                                                          selftest.whole_blocks(selftest.SQUEEZE_CALLS))],
        single_absorb=[dict(c, returns=r) for c, r in zip(selftest.SINGLE_ABSORB,
                                                          selftest.whole_blocks(selftest.SINGLE_ABSORB))],
        xn_absorb=selftest.XN_ABSORB, xn_squeeze=selftest.XN_SQUEEZE, xn_out=selftest.XN_OUT,
        xn_start=selftest.XN_START,
        xn_states_rounds=selftest.XN_STATES_ROUNDS, snp_xn_script=selftest.SNP_XN_SCRIPT,
        snp_xn_out=selftest.SNP_XN_OUT,
        chacha_levels=level_rows, chacha_counts=counts, chacha_rounds=tuple(chacha_rounds),
        all_checks=every, message_bytes=selftest.MESSAGE_BYTES, short=selftest.SHORT,
        max_out=200, kt_custom=selftest.KT_CUSTOM, snp_script=selftest.SNP_SCRIPT,
        od_trail=selftest.OD_TRAIL,
        sp={"name": selftest.SP_NAME, "key": selftest.SP_KEY, "parts": selftest.SP_PARTS},
        absorb_calls=[dict(c, returns=r) for c, r in zip(selftest.ABSORB_CALLS,
                                                         selftest.whole_blocks(selftest.ABSORB_CALLS))],
        chacha_width=width, chacha_pos=f"{selftest.CHACHA_POS:#x}ULL")
    headers = [h for h in PUBLIC_HEADERS if h in files] + sorted(
        h for h in files if PUBLIC_MULTI.fullmatch(h))
    files["roundsmith.h"] = render.render(
        env, "roundsmith.h.j2", prefix=prefix, ns=ns, headers=headers,
        dispatch=dispatch, codes=codes,
        stack_hint=stack_hint(list(leaves) + [l["check"]["p"] for l in xn]),
        guard=kernels.guard(ns, "roundsmith.h"),
        header=render.provenance(params, command, "roundsmith.h: the one header to include."))


def stack_hint(leaves):
    """rs_selftest()'s own frame, as gcc -fstack-usage reports it at -O2 (1.8 KiB with no
    multi-state check, 4.8 KiB portable and 5.5 KiB x86-64 with the x8 ones: each instance's
    state is there twice, and 64 bytes of squeezed output)."""
    n = max((leaf["n"] for leaf in leaves), default=0)
    return f"{-(-(1800 + 2 * 200 * n + 64 * n) // 1024)} KiB"


# The JavaScript side copies inputs into the module's memory in pieces of this many bytes (a
# multiple of KT128's 8 KiB chunk, so its leaves still go through the x2 kernel in pairs, and
# of ChaCha's 64-byte block, so a piece is whole blocks).
WASM_CHUNK = 64 * 1024
WASM_FILES = ("roundsmith_wasm.c", "roundsmith.mjs", "roundsmith.d.ts", "package.json")


def wasm_module(env, files, prefix, command, params, chacha_rounds, keep_drop_in_names=False):
    """What a wasm folder adds: roundsmith_wasm.c (the module's exports), roundsmith.mjs and
    its TypeScript declarations, and a package.json naming them (not published)."""
    has_keccak = "keccak_sponge.h" in files
    common = dict(prefix=prefix, ns=render.namespace(prefix), has_keccak=has_keccak,
                  drop_in_prefix=render.drop_in_prefix(prefix, keep_drop_in_names),
                  hashes=sponge.HASHES if has_keccak else (),
                  xofs=sponge.XOFS if has_keccak else (),
                  turboshakes=sponge.TURBOSHAKES if has_keccak else (),
                  chacha_rounds=sorted(chacha_rounds) if "chacha.h" in files else [],
                  chunk=WASM_CHUNK)
    exports = dict(common, xofs=common["xofs"] + common["turboshakes"])
    for name, context, what in (
            ("roundsmith_wasm.c", exports, "the module's exports."),
            ("roundsmith.mjs", common, "the folder's wasm build from JavaScript."),
            ("roundsmith.d.ts", common, "roundsmith.mjs's types.")):
        files[name] = render.render(env, name + ".j2", **context,
                                    header=render.provenance(params, command, f"{name}: {what}"))
    files["package.json"] = render.render(
        env, "package.json.j2", lib=library(prefix), version=VERSION,
        provenance=render.provenance_lines(params, command, "package.json: roundsmith.mjs as "
                                                            "a package (not published)."))


def build_files(env, files, prefix, command, params, description):
    """The license and the build-system files, listing the folder's final sources."""
    lib = library(prefix)
    # A subfolder's files are not the library's: a client copies them over its own.
    sources = sorted(n for n in files if n.endswith(".c") and "/" not in n)
    headers = sorted(n for n in files if n.endswith(".h") and "/" not in n)
    common = dict(lib=lib, macro=lib.upper(), version=VERSION, sources=sources,
                  headers=headers, description=description)
    files[LICENSE] = render.license_text()
    files["CMakeLists.txt"] = render.render(
        env, "CMakeLists.txt.j2", **common,
        header=render.provenance_hash(params, command, "CMakeLists.txt: the folder as a CMake "
                                                       "library."))
    files["meson.build"] = render.render(
        env, "meson.build.j2", **common,
        header=render.provenance_hash(params, command, "meson.build: the folder as a Meson "
                                                       "project (or subproject)."))
    files[f"{lib}.pc.in"] = render.render(
        env, "roundsmith.pc.in.j2", **common,
        header=render.provenance_hash(params, command, f"{lib}.pc.in: the pkg-config file."))
    return files
