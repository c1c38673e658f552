# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`prove --api`: a line per public function of a folder's public headers, proven by the
byte-layer engine (symexec.py) where its obligations cover the function's class
(sponge_api.py: the single-state sponge; sp800185_api.py: cSHAKE, KMAC and TupleHash on
it; mb_api.py: the multi-buffer sponge; chacha_api.py: ChaCha's API), `not supported` with the reason elsewhere."""

import os
import re
import time

from . import api_closure, cfront, driver
from . import chacha_api as CA
from . import mb_api as M
from . import snp_api as SNP
from . import sp800185_api as S8
from . import sponge_api as A
from .symexec import Failure, Unsupported

HEADERS = ("keccak_sponge.h", "chacha.h", "chacha8.h", "KeccakP-1600-SnP.h",
           "KeccakP-1600-times2-SnP.h", "KeccakP-1600-times4-SnP.h",
           "KeccakP-1600-times8-SnP.h")

# The classes not covered yet, by the name's shape, with the reason printed.
NOT_YET = [
    (r"kt(128|256)(_.*)?", "KangarooTwelve's tree is not covered by the byte-layer prover yet"),
    (r"(parallelhash|parallelhashxof)\d+(_.*)?",
     "ParallelHash's tree (KangarooTwelve's) is not covered by the byte-layer prover yet"),
]


def public_functions(folder):
    """[(header, name)] of every function a public header of the folder declares."""
    out = []
    for h in HEADERS:
        path = os.path.join(folder, h)
        if not os.path.exists(path):
            continue
        text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
        text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*;", text):
            name = m.group(1)
            if name not in ("sizeof",) and (h, name) not in out:
                out.append((h, name))
    return out


def prove_api(folder, configs=None, only=None, progress=None, shared=None):
    """[(status, function, configs, seconds, detail, failure)] for the folder's public
    functions; shared: a Shared of the run's earlier folders' proofs, which this one's join."""
    if shared is not None:
        shared.folder = folder
    arch = driver.folder_arch(folder, [os.path.join(folder, f) for f in os.listdir(folder)
                                       if driver.is_kernel_file(os.path.join(folder, f))])
    cfgs = configs or [c for c in cfront.CONFIGS_FOR_ARCH.get(arch, ())
                       if cfront.CONFIGS[c].available()]
    src = os.path.join(folder, "keccak_sponge.c")
    sponges = {}          # digest -> (Sponge, [config names])
    multi = {}            # the same for the multi-buffer sponge (MultiSponge)
    sp800 = {}            # and for SP 800-185 on the single-state sponge
    if os.path.exists(src):
        for c in cfgs:
            cfg = cfront.CONFIGS[c]
            unit = cfront.load(src, cfg)
            key = (unit.digest, cfg.big_endian)
            if key not in sponges:
                sponges[key] = (A.Sponge(unit, cfg), [])
                multi[key] = (M.MultiSponge(unit, cfg), [])
                sp800[key] = (S8.Sp800185(sponges[key][0]), sponges[key][1])
            sponges[key][1].append(c)
            multi[key][1].append(c)
    chachas = _units(os.path.join(folder, "chacha.c"), configs or _file_configs(
        os.path.join(folder, "chacha.c"), cfgs), CA.Chacha,
                     # the vector levels' dispatch is built on Linux (aarch64's
                     # rs_dispatch.h): each compiler is read with and without __linux__
                     variants=((), ("-D__linux__=1",)))
    snps = {f: _units(os.path.join(folder, f), configs or _file_configs(
        os.path.join(folder, f), cfgs), SNP.Snp) for f in ("keccak_snp.c", "keccak_snp_xN.c")
            if any(SNP.classify(n) for _, n in public_functions(folder)
                   if not only or n in only)}
    results = []
    for header, name in public_functions(folder):
        if only and name not in only:
            continue
        t0 = time.time()
        if SNP.classify(name) is not None:
            f = "keccak_snp.c" if SNP.classify(name)[0] == 1 else "keccak_snp_xN.c"
            results.append(_prove_with(name, snps[f], f, t0, shared=shared))
            if progress:
                progress(results[-1])
            continue
        if CA.classify(name) is not None:
            results.append(_prove_with(name, chachas, "chacha.c", t0,
                                       cfront.CONFIGS_FOR_ARCH.get(arch, ()), shared))
            if progress:
                progress(results[-1])
            continue
        provers = sponges
        if M.classify(name) is not None:
            provers = multi
        elif S8.classify(name) is not None:
            provers = sp800
        elif A.classify(name) is None:
            reason = next((r for pat, r in NOT_YET if re.fullmatch(pat, name)),
                          "no specification of this function in the byte-layer prover")
            results.append(("not supported", name, [], 0.0, reason, None))
            if progress:
                progress(results[-1])
            continue
        results.append(_prove_with(name, provers, "keccak_sponge.c", t0, shared=shared))
        if progress:
            progress(results[-1])
    return results


def _file_configs(src, default):
    """The configurations a file is built with, by the target its provenance header names
    (generic64: every configuration of the portable folder, big-endian ones included)."""
    if not os.path.exists(src):
        return default
    m = re.search(r"^ \*\s+target\s+= (\S+)$", open(src).read(3000), re.M)
    arch = {"generic64": "portable"}.get(m.group(1), m.group(1)) if m else None
    names = cfront.CONFIGS_FOR_ARCH.get(arch)
    if names is None:
        return default
    return [c for c in names if cfront.CONFIGS[c].available()]


def _units(src, cfgs, cls, variants=((),)):
    """{(digest, big-endian): (cls(unit, config), [config names])} of the file under each
    configuration (and each preprocessor variant), one per distinct preprocessed text."""
    units = {}
    if not os.path.exists(src):
        return units
    for c in cfgs:
        cfg = cfront.CONFIGS[c]
        for extra in variants:
            unit = cfront.load(src, cfg, extra)
            if unit is None:
                continue
            key = (unit.digest, cfg.big_endian)
            label = c + "".join(" " + x[2:].split("=")[0] for x in extra)
            if key not in units:
                units[key] = (cls(unit, cfg), [])
            if c not in " ".join(units[key][1]).split():
                units[key][1].append(label)
    return units


def _prove_unit(name, obj, cnames, shared):
    """The detail of one unit's proof of `name`: proven here, or, where shared holds a proof
    of the same text (api_closure) from an earlier folder of the run, that one's. Raises
    Failure or Unsupported."""
    key = (type(obj).__name__, name, api_closure.digest(obj.eng.unit, name,
                                                        obj.eng.big_endian))
    if shared is not None and key in shared.proofs:
        text, used, where = shared.proofs[key]
        obj.shared_used = getattr(obj, "shared_used", set()) | used
        return text, where
    cases = obj.prove(name)
    text = SNP.detail(name, cases, obj) if isinstance(obj, SNP.Snp) else f"{cases} paths"
    if shared is not None and key[2] is not None:
        shared.proofs[key] = (text, set(getattr(obj, "used", ())),
                              f"{shared.folder} [{', '.join(cnames)}]")
    return text, None


class Shared:
    """The proofs of a `prove --api` run over several folders, by the text they read."""

    def __init__(self):
        self.proofs = {}        # (class, function, digest) -> (detail, contracts, where)
        self.folder = ""


def _prove_with(name, units, src, t0, kernel_cfgs=(), shared=None):
    """(status, name, configs, seconds, detail, failure) of one function over the units;
    kernel_cfgs: the configurations the kernel prover reads the folder under."""
    status, detail, failure, names, wheres = "proved", "", None, [], []
    for obj, cnames in units.values():
        names += cnames
        try:
            text, where = _prove_unit(name, obj, cnames, shared)
            detail = detail or text
            if isinstance(obj, SNP.Snp):
                detail = text
            wheres += [where] if where else []
        except Failure as f:
            status, detail, failure = "counterexample", str(f), (f, obj, cnames)
            break
        except Unsupported as u:
            status, detail = "not supported", str(u)
            break
    if not units:
        status, detail = "not supported", f"{src} is not in the folder"
    if status == "proved" and wheres:
        detail += f"; the same text as {' and '.join(dict.fromkeys(wheres))}: one proof"
    used = sorted(set().union(*[getattr(o, "used", set()) | getattr(o, "shared_used", set())
                                for o, _ in units.values()]))
    if status == "proved" and used:
        # what the proof took on trust: the kernels' contracts, and which of them the kernel
        # prover does not reach under its own configurations
        kernel = [o for o, c in units.values() if set(c) & set(kernel_cfgs)]
        seen = set().union(*[set(o.eng.funcs) for o in kernel])
        detail += "; contracts: " + ", ".join(used)
        unreached = [u for u in used if u not in seen]
        if unreached:
            detail += (f" ({', '.join(unreached)} only in a branch the kernel prover's "
                       "configurations do not take: assumed, not proven)")
        if not any(o.eng.big_endian for o in kernel):
            be = [x for o, c in units.values() if o.eng.big_endian for x in c]
            if be:
                detail += (f" (under {', '.join(be)}: big-endian, which the kernel prover "
                           "does not run on this folder: assumed)")
    return (status, name, names, time.time() - t0, detail, failure)


def report(folder, configs=None, only=None, out=None, shared=None):
    """Print a line per public function; True when every one proved. shared: as
    prove_api's."""
    import sys
    out = out or sys.stdout
    t0 = time.time()

    def line(r):
        status, name, cnames, secs, detail, failure = r
        text = f"{status:14} {folder}: {name}"
        if cnames:
            text += f" [{', '.join(cnames)}]"
        text += f" {secs:.1f} s"
        if detail:
            text += f": {detail}"
        print(text, file=out, flush=True)
        if failure:
            print(counterexample_text(name, *failure), file=out, flush=True)

    results = prove_api(folder, configs, only, progress=line, shared=shared)
    ok = sum(r[0] == "proved" for r in results)
    print(f"{folder}: {ok} of {len(results)} public functions proved ({time.time() - t0:.0f} s)",
          file=out, flush=True)
    return bool(results) and ok == len(results)


def counterexample_text(name, failure, sponge, cnames):
    """The path's lengths and position, and C calling the folder's API from init to that
    state and then the failing call: it differs from hashlib's bytes, or writes out of its
    buffer (run it under AddressSanitizer). ChaCha's: chacha_api.counterexample_text."""
    if isinstance(sponge, CA.Chacha):
        return CA.counterexample_text(name, failure, sponge, cnames)
    if isinstance(sponge, SNP.Snp):
        from . import snp_repro
        return snp_repro.counterexample_text(name, failure, sponge, cnames)
    m = smallest(failure, sponge.eng)
    vals = {}
    for d in m.decls():
        if d.arity() == 0 and d.name() in LENGTHS + ("pos", "domain"):
            vals[d.name()] = m[d].as_long()
    lines = [f"    kind: {failure.kind}; the call's " +
             ", ".join(f"{k} = {v}" for k, v in sorted(vals.items()))]
    lines.append("    reproduce (cc -fsanitize=address -I<folder> repro.c <folder>/*.c && ./a.out):")
    repro = M.c_repro(name, vals) if M.classify(name) else \
        S8.c_repro(name, vals) if S8.classify(name) else \
        c_repro(name, vals, getattr(failure, "role", None))
    lines += ["      " + x for x in repro.splitlines()]
    return "\n".join(lines)


# The symbolic lengths a counterexample names (a reproduction allocates them).
LENGTHS = ("len", "inlen", "outlen", "namelen", "customlen", "keylen")


def smallest(failure, eng):
    """The failing path's model with the lengths as small as z3 finds them (a reproduction
    allocates them): below 2^8, 2^16, 2^32 + 2^12, 2^33 in turn, else the model found."""
    import z3
    if failure.state is None:
        return failure.model
    names = [z3.BitVec(n, 64) for n in LENGTHS]
    for bound in (1 << 8, 1 << 16, (1 << 32) + (1 << 12), 1 << 33):
        try:
            m = eng.sat(failure.state, *failure.query,
                        *[z3.ULE(v, bound) for v in names])
        except Exception:
            m = None
        if m is not None:
            return m
    return failure.model


def _expected(fam, role, pos, n, inlen, outn):
    """The standard's output (hashlib) for the repro's message of zero bytes, where hashlib
    has the function and the message is small enough to hash here; else None."""
    import hashlib
    total = inlen if role == "oneshot" else pos + (n if role in ("update", "absorb") else 0)
    if total > 1 << 26 or role == "squeeze":
        return None
    name = fam.replace("shake", "shake_")
    if not hasattr(hashlib, name):
        return None
    h = getattr(hashlib, name)(bytes(total))
    return list(h.digest(outn) if fam.startswith("shake") else h.digest())


def c_repro(name, vals, role=None):
    """C that reaches the failing call through the folder's API; `role`: the call is the
    family's update/absorb or squeeze/final whatever function failed (the sponge's own absorb
    or squeeze failed its proof under it)."""
    fam, own = A.classify(name)
    if role is None:
        role = own
    else:
        digest = A.FAMILIES[fam][3]
        role = {"update": "update" if digest is not None else "absorb",
                "squeeze": "final" if digest is not None else "squeeze"}[role]
        name = f"{fam}_{role}"
    rate, rounds, domain, digest = A.FAMILIES[fam]
    pos, n, inlen = vals.get("pos", 0), vals.get("len", 0), vals.get("inlen", 0)
    dom = vals.get("domain", 0x1F)
    darg = "" if domain is not None else f", {dom}"
    absorb = "update" if digest is not None else "absorb"
    sq = "final" if digest is not None else "squeeze"
    outn = digest if digest is not None else 64
    body = ["keccak_sponge *ctx = malloc(sizeof *ctx);",
            f"uint8_t *pre = calloc(1, {pos} + 1);",
            f"uint8_t *buf = calloc((size_t){max(n, inlen, 1)}ULL, 1);",
            f"uint8_t out[{max(outn, 1)}];",
            "if (!ctx || !pre || !buf) return 2;"]
    if role == "oneshot":
        if digest is not None:
            body.append(f"{name}(out, buf, (size_t){inlen}ULL);")
        else:
            body.append(f"{name}(out, {outn}, buf, (size_t){inlen}ULL{darg});")
    else:
        body.append(f"{fam}_init(ctx{darg});")
        body.append(f"{fam}_{absorb}(ctx, pre, {pos});   /* pos = {pos} */")
        if role in ("update", "absorb"):
            body.append(f"{name}(ctx, buf, (size_t){n}ULL);")
        if role in ("init", "update", "absorb"):
            body.append(f"{fam}_{sq}(ctx, out" + ("" if digest is not None else f", {outn}")
                        + ");")
        elif role == "final":
            body.append(f"{name}(ctx, out);")
        elif role == "squeeze":
            body.append(f"{name}(ctx, buf, (size_t){n}ULL);")
    want = _expected(fam, role, pos, n, inlen, outn)
    if want is not None:
        arr = ", ".join(f"0x{b:02x}" for b in want)
        body.append(f"static const uint8_t want[{len(want)}] = {{{arr}}};")
        body.append(f"for (size_t i = 0; i < {len(want)}; i++)")
        body.append("    if (out[i] != want[i]) {")
        body.append('        printf("output byte %zu differs from the standard\'s (hashlib): '
                    '%02x, not %02x\\n", i, out[i], want[i]);')
        body.append("        free(ctx); free(pre); free(buf);")
        body.append("        return 1;")
        body.append("    }")
    body.append('puts("the same as the standard\'s output");')
    body.append("free(ctx); free(pre); free(buf);")
    body.append("return 0;")
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n"
            "#include \"keccak_sponge.h\"\n\nint main(void)\n{\n"
            + "".join(f"    {x}\n" for x in body) + "}\n")
