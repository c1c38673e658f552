# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Prove every kernel entry point of the C files in a folder, under every compiler branch.

A function is proven once per distinct text: the same body (with what it calls and the tables
it reads) under two compilers is one proof, named for both. A ChaCha level takes the calls to
helpers proven in the same run as their contracts (generator/prove/chacha_obligations.py), and
a Keccak sponge or Keccak-f its calls to the file's proven permutation
(generator/prove/keccak_obligations.py); if one of those did not prove, the caller is proven
again without them. A dispatch wrapper
that passes its call on unchanged rests, per path, on the proof of the kernel it calls
(generator/prove/passthrough.py), and is likewise run whole if that proof failed.

The work is split by file: each worker parses a file under every branch and proves its
kernels there, so no parse tree crosses a process and both cores work from the start; the
dispatch wrappers, which rest on kernels of other files, are proven once every file is done.
"""

import concurrent.futures
import hashlib
import os
import re
import time
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from . import anf, cfront, chacha_obligations, decisions, intrinsics, keccak_obligations
from . import passthrough, x86asm
from . import ctypes_ as T
from .interp import Interp, Linked
from .memory import Unsupported

# A folder's kernel sources: a bundle's or generate's, and the testsuite's variants (named for
# their registry: keccakp1600_u6_lc_fused_rorx.c).
KERNEL_FILES = ("keccak_p1600", "keccakp1600", "chacha")
# The call a dispatch wrapper asks which path to take; its proof covers every answer. It is
# in the folder's namespace: rs_path, or <prefix>path under --prefix (dispatch_oracle).
DISPATCH_ORACLE = "rs_path"
# The kinds a caller in the same file may take as their contracts once proven (ChaCha's block
# function and W-block helpers, the Keccak permutations), and the Keccak kinds that call one.
HELPERS = ("block", "chunk", "p", "pN", "spN")
SPONGES = ("f", "absorb", "squeeze", "fN", "absorbN", "squeezeN", "sfN")


@dataclass
class Result:
    file: str
    function: str
    configs: list
    status: str            # proved, counterexample, not supported
    detail: str = ""
    cases: int = 0
    seconds: float = 0.0
    counterexample: dict = field(default_factory=dict)
    assumed: list = field(default_factory=list)     # functions taken as their contracts


def kind_of(name):
    k = keccak_obligations.kind_of(name)
    if k is not None:
        return ("keccak",) + k
    k = chacha_obligations.kind_of(name)
    if k is not None:
        return ("chacha",) + k
    return None


def is_kernel_file(path):
    base = os.path.basename(path)
    return base.endswith(".c") and base.startswith(KERNEL_FILES)


def _read(path, size=-1):
    with open(path) as f:
        return f.read(size)


def for_wasm(texts):
    """True when one of the C texts' provenance headers says target wasm32."""
    return any(re.search(r"^ \*\s+target\s+= wasm32$", t[:2000], re.M) for t in texts)


def folder_arch(folder, files):
    """x86_64, aarch64, portable (any C the prover reads under every configuration), or
    wasm32, which it has no configuration for: a bundle's as its rs_dispatch.h names it, else
    guessed from the files."""
    names = {os.path.basename(f) for f in files}
    if for_wasm(_read(f, 2000) for f in files):
        return "wasm32"
    dispatch = os.path.join(folder, "rs_dispatch.h")
    m = re.search(r"^ \*\s+bundle = (\w+)$", _read(dispatch, 2000), re.M) \
        if os.path.exists(dispatch) else None
    if m and m.group(1) in cfront.CONFIGS_FOR_ARCH:
        return m.group(1)
    manifest = os.path.join(folder, "roundsmith.manifest")
    text = _read(manifest) if os.path.exists(manifest) else ""
    if any("neon" in n or "sha3" in n for n in names) or "aarch64" in text.split("\n")[0:8].__str__():
        return "aarch64"
    # an x-N kernel named for its ISA (keccak_p1600_x4_avx2.c; keccak_p1600_xN.c, the x-N
    # dispatch, is in every bundle)
    if any(re.match(r"keccak_p1600_x\d", n) or "bmi2" in n for n in names):
        return "x86_64"
    if "target" in text and "x86_64" in text[:2000] and "portable" not in text[:2000]:
        return "x86_64"
    return "portable"


def _interp(unit, cfg):
    return Interp(unit, intrinsics.MODELS, x86asm.run, cfg.big_endian)


def _calls(interp, name):
    """The functions of the unit `name` reaches (itself first), and the names it calls that
    the unit does not define and the prover has no model of (a dispatch wrapper's calls into
    the folder's other files)."""
    seen, order, stack, outside = set(), [], [name], set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n not in interp.funcs:
            if n not in interp.intrinsics and n != "__rs_asm":
                outside.add(n)
            continue
        fd = interp.funcs[n]
        order.append(fd)
        stack.extend(_facts(fd)[1])
    return order, sorted(outside)


# id(function definition) -> (the definition, the names it calls, its C text). Every kernel's
# closure walks the helpers it shares with the file's other kernels, and the parse trees are
# shared by every branch that preprocesses alike (generator/prove/cfront.py keeps them for
# the process, so an id is not reused while its entry holds the node).
_FACTS = {}


def _facts(fd):
    got = _FACTS.get(id(fd))
    if got is not None and got[0] is fd:
        return got
    called = []

    class V(c_ast.NodeVisitor):
        def visit_FuncCall(self, node):
            if isinstance(node.name, c_ast.ID):
                called.append(stmt_expr_body(node) or node.name.name)
            self.generic_visit(node)

    V().visit(fd.body)
    got = _FACTS[id(fd)] = (fd, tuple(called), c_generator.CGenerator().visit(fd))
    return got


def stmt_expr_body(call):
    """The function holding a lifted statement expression's block (cfront.lift_stmt_exprs),
    for a call to it; else None."""
    if call.name.name != cfront.STMT_EXPR:
        return None
    return cfront.stmt_expr_block(call.args.exprs[0].value)


def _closure(interp, name):
    """The function and everything it calls in the unit, as C text, for the digest; and the
    names it calls from outside the unit."""
    order, outside = _calls(interp, name)
    return "\n".join(_facts(fd)[2] for fd in order), outside


def namespace(folder):
    """The folder's namespace: what its rs_dispatch.h's path function is named with (rs_, or
    the --prefix that replaced it); rs_ for a folder without one."""
    path = os.path.join(folder, "rs_dispatch.h")
    if os.path.exists(path):
        m = re.search(r"^int (\w*)path\(void\);$", _read(path), re.M)
        if m:
            return m.group(1)
    return DISPATCH_ORACLE[:-len("path")]


def dispatch_oracle(folder):
    """The name of the folder's dispatch oracle (rs_path, a_path under --prefix a_)."""
    return namespace(folder) + "path"


def _oracle_of(job):
    return dispatch_oracle(os.path.dirname(job[0]))


def choice_oracle(folder):
    """The per-CPU table's answer a wrapper may also ask (rs_choice(d), a_choice under
    --prefix a_): its proof covers every option each path can run, whatever row a CPU takes."""
    return namespace(folder) + "choice"


def path_choices(folder, family):
    """{path value: the options rs_choice may answer on it}: the bits of rs_dispatch.c's
    rs_runs over the decisions of `family` (Keccak's multi-buffer and leaf decisions, or
    ChaCha's): every option some CPU's row can make that path take, and no other."""
    src, hdr = os.path.join(folder, "rs_dispatch.c"), os.path.join(folder, "rs_dispatch.h")
    m = re.search(r"static const unsigned \w*runs\[\w+\]\[\d+\] = \{(.*?)\n\};", _read(src),
                  re.S) if os.path.exists(src) else None
    if not m or not os.path.exists(hdr):
        return {}
    rows = [[int(v) for v in re.findall(r"\d+", r)] for r in re.findall(r"\{([^{}]*)\}", m.group(1))]
    ns = re.escape(namespace(folder).upper())
    names = {int(d): n for n, d in re.findall(rf"^#define {ns}DECISION_(\w+) (\d+)", _read(hdr),
                                              re.M)}
    mine = [r for d, r in enumerate(rows) if (names.get(d) == "CHACHA") == (family == "chacha")]
    out = {}
    for p in sorted(path_names(folder)):
        bits = 0
        for r in mine:
            bits |= r[p] if p < len(r) else 0
        out[p] = [o for o in range(bits.bit_length()) if bits >> o & 1]
    return out


def _answers(folder, outside, family):
    """The oracle answers a wrapper is run on: paths, or (path, choice) pairs."""
    paths = sorted(path_names(folder))
    if choice_oracle(folder) not in outside:
        return paths
    choices = path_choices(folder, family)
    return [(p, c) for p in paths for c in choices.get(p, [0])]


def _answer(interp, folder, answer, asked=None):
    """Make the oracles give `answer` (a path, or a (path, choice) pair); each time one is
    asked, append its name to `asked`."""
    p, c = answer if isinstance(answer, tuple) else (answer, None)
    asked = [] if asked is None else asked

    def oracle(name, value):
        return lambda vals: (asked.append(name), (value, T.INT))[1]

    interp.externs[dispatch_oracle(folder)] = oracle(dispatch_oracle(folder), p)
    if c is not None:
        interp.externs[choice_oracle(folder)] = oracle(choice_oracle(folder), c)


def path_names(folder):
    """{value: name} of the answers rs_path() can give: the RS_PATH_* macros (in the folder's
    namespace) of its rs_dispatch.h (the names ROUNDSMITH_PATH takes)."""
    path = os.path.join(folder, "rs_dispatch.h")
    if not os.path.exists(path):
        return {}
    ns = re.escape(namespace(folder).upper())
    found = re.findall(rf"^#define {ns}PATH_(\w+) (\d+)$", _read(path), re.M)
    return {int(v): n.lower() for n, v in found}


def _link(interp, folder, cfg, own, outside, loaded=None):
    """Resolve the calls out of `own` to the functions of the folder's other kernel files
    (interpreted there, under the same compiler's branch), and theirs in turn. The oracle
    rs_path is left to the caller, which runs the wrapper once per answer."""
    loaded = {} if loaded is None else loaded
    loaded.setdefault(own, interp)
    oracles = {dispatch_oracle(folder), choice_oracle(folder)}
    for n in sorted(set(outside) - oracles - set(interp.externs)):
        for f in sorted(os.listdir(folder)):
            other = os.path.join(folder, f)
            if other == own or not is_kernel_file(other):
                continue
            if other not in loaded:
                try:
                    unit = cfront.load(other, cfg)
                except cfront.Unreadable as e:
                    raise Unsupported(f"{os.path.basename(other)}: {e}") from None
                loaded[other] = unit and _interp(unit, cfg)
            oi = loaded[other]
            if oi is None or n not in oi.funcs:
                continue
            # A wrapper reached from a wrapper (keccak_p1600 under the x-N fallback) hears
            # the same answers: its oracles ask the caller's at the time of the call.
            for o in oracles:
                oi.externs.setdefault(o, lambda vals, o=o, up=interp: up.externs[o](vals))
            _link(oi, folder, cfg, other, _calls(oi, n)[1], loaded)
            interp.externs[n] = Linked(oi, oi.funcs[n])
            break
        else:
            raise Unsupported(f"{n} is defined in no kernel file of {folder}")


def _globals_text(unit):
    gen = c_generator.CGenerator()
    return "\n".join(gen.visit(e) for e in unit.ast.ext if isinstance(e, c_ast.Decl) and
                     not isinstance(e.type, c_ast.FuncDecl))


def _files(folder, configs):
    """(the folder's kernel files, its arch, the configurations to prove them under)."""
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if is_kernel_file(os.path.join(folder, f)))
    arch = folder_arch(folder, files)
    return files, arch, configs or cfront.CONFIGS_FOR_ARCH[arch]


def _plan_file(folder, path, configs, only):
    """[[file, function, [config names], unit config, digest, outside calls, proven, text
    size]], one job per distinct text of one file; proven: the helper and block functions
    the file's other jobs prove under the job's unit config (a level may take their
    contracts), and for a dispatch wrapper the kernels it may pass its call to, added by
    _wrapper_helpers once every file is planned."""
    jobs = {}
    for cname in configs:
        cfg = cfront.CONFIGS[cname]
        if not cfg.available():
            continue
        if only and not cfront.mentions(path, cfg, only):
            continue    # none of the asked-for functions is in it: no need to parse it
        try:
            unit = cfront.load(path, cfg)
        except cfront.Unreadable as e:
            # One line for the file, its kernels unnamed: the parser saw none of them.
            jobs.setdefault((path, None, ""), [path, None, [], cname, str(e), (), None, 0])[
                2].append(cname)
            continue
        if unit is None:
            continue
        interp = _interp(unit, cfg)
        gtext = _globals_text(unit)
        for name, fd in interp.funcs.items():
            if kind_of(name) is None:
                continue
            if only and name not in only:
                continue
            text, outside = _closure(interp, name)
            text += gtext + unit.asm.__repr__()
            if outside:
                # A wrapper: its proof runs the files it calls, so their text is its text.
                text += repr(outside) + repr(sorted(path_names(folder))) + "".join(
                    _read(os.path.join(folder, f)) for f in sorted(os.listdir(folder))
                    if is_kernel_file(os.path.join(folder, f)))
            digest = hashlib.sha256((name + str(cfg.big_endian) + text).encode()).hexdigest()
            key = (path, name, digest)
            if key not in jobs:
                jobs[key] = [path, name, [], cname, digest, outside, None, len(text)]
            jobs[key][2].append(cname)
    jobs = list(jobs.values())
    for job in jobs:
        job[6] = frozenset(other[1] for other in jobs if job[3] in other[2] and other[1] and
                           kind_of(other[1])[1] in HELPERS)
    return jobs


def _wrapper_helpers(jobs):
    """Add to each dispatch wrapper's helpers what it may pass its call to: a kernel of
    another file, proven under every branch the wrapper's text stands for."""
    under = {}      # name -> the configurations some job proves it under
    for other in jobs:
        if other[1]:
            under.setdefault(other[1], set()).update(other[2])
    for job in jobs:
        if _oracle_of(job) in job[5]:
            job[6] = job[6] | {n for n in job[5] if n in under and set(job[2]) <= under[n]}


def prove_one(job, quick=False, contracts=True):
    path, name, cnames, cname, digest, outside, proven, _ = job
    if name is None:
        return Result(os.path.basename(path), "(every kernel of the file)", cnames,
                      "not supported", detail=digest)
    cfg = cfront.CONFIGS[cname]
    unit = cfront.load(path, cfg)
    interp = _interp(unit, cfg)
    family, kind, n = kind_of(name)
    mod = keccak_obligations if family == "keccak" else chacha_obligations
    t0 = time.time()
    cases = mod.cases(kind, n, quick=quick)
    # A dispatch wrapper is run once per answer of the oracle, into the kernels it calls.
    answers = [None]
    oracle = _oracle_of(job)
    folder = os.path.dirname(path)
    if oracle in outside:
        answers = _answers(folder, outside, family)
    res = Result(os.path.basename(path), name, cnames, "proved",
                 cases=len(cases) * len(answers))
    try:
        _link(interp, os.path.dirname(path), cfg, path, outside)
        if not answers:
            raise Unsupported(f"{oracle} is called but the folder has no rs_dispatch.h")
    except Unsupported as e:
        res.status = "not supported"
        res.detail = str(e)
        return res
    # Answers whose call the wrapper passes on unchanged to a proven kernel of its kind: their
    # cases are that kernel's, proven by its own job.
    lemma = _pass_through(job, interp, answers, (family, kind, n)) if contracts else {}
    given = {}
    linked = set(outside) - {oracle, choice_oracle(folder)}
    if contracts and (kind == "level" if family == "chacha" else kind in SPONGES):
        given = _contracts(interp, mod, proven - {name})
    if contracts and linked:
        # The kernels of other files it calls (a wrapper's fallbacks and copies), each taken
        # as its contract; prove_folder proves a caller again, whole, where one of them did
        # not prove or was not proven in the run.
        given.update(_contracts(interp, mod, linked, linked=True))
    # A case proven on one answer is proven on another that takes the same road through the
    # unit's deciders (generator/prove/decisions.py).
    deciders = decisions.deciders(interp, {oracle, choice_oracle(folder)})
    records = {}
    for answer, (i, case) in ((a, c) for a in answers if a not in lemma
                              for c in enumerate(cases)):
        if any(r.same_under(lambda: _answer(interp, folder, answer)) for r in records.get(i, ())):
            continue
        asked = []
        if answer is not None:
            _answer(interp, folder, answer, asked)
            case = dict(case, **(dict(path=answer[0], choice=answer[1])
                                 if isinstance(answer, tuple) else dict(path=answer)))
        try:
            with decisions.Record(interp, deciders, asked) as record:
                _run_case(interp, mod, given, (name, kind, n), case, cfg.big_endian)
            if record.replayable():
                records.setdefault(i, []).append(record)
        except (mod.Mismatch, anf.Diverged) as e:
            res.status = "counterexample"
            res.detail = _describe(case, e)
            res.counterexample = dict(case=case, family=family, kind=kind, n=n,
                                      where=_localise(), what=str(e))
            break
        except Unsupported as e:
            res.status = "not supported"
            res.detail = f"{_case_text(case)}: {e}"
            break
        except RecursionError:
            res.status = "not supported"
            res.detail = f"{_case_text(case)}: the expression nests too deep"
            break
    res.seconds = time.time() - t0
    res.assumed = sorted(interp.contracted | set(lemma.values()))
    if res.assumed and res.status == "proved":
        res.detail = "given the proofs of " + ", ".join(res.assumed)
    return res


def _run_case(interp, mod, given, what, case, big_endian):
    """Run one case, first on the contracts `given` if any."""
    name, kind, n = what
    if given:
        before = set(interp.contracted)
        try:
            interp.contracts = given
            return mod.run_case(interp, name, kind, n, case, big_endian, contracts=True)
        except (mod.Mismatch, anf.Diverged, Unsupported, RecursionError):
            # Blocks computed elsewhere than in a proven helper: the case is run whole, and
            # its verdict is that run's (it rests on no contract).
            interp.contracts = {}
            interp.contracted = before
    return mod.run_case(interp, name, kind, n, case, big_endian)


def _contracts(interp, mod, proven, linked=False):
    """{name: contract} for the functions of `proven` (proven in this run under the same
    branch) that the unit defines (or, `linked`, that it calls in another file) and whose
    kind has a contract in `mod`. None when the unit has a global the callee could write: a
    contract says a call writes what it is given to write and nothing else."""
    if any(not obj.readonly for _, obj in interp.globals.values()):
        return {}
    out = {}
    for name in proven:
        k = mod.kind_of(name)
        here = name in interp.externs if linked else name in interp.funcs
        made = mod.contract(*k) if here and k is not None else None
        if made is not None:
            out[name] = made
    return out


def _pass_through(job, interp, answers, kind):
    """{answer: the proven kernel of `kind` the wrapper passes its call to on that answer},
    the lemma checked under every configuration the job stands for (the callees' declared
    types come from each branch's own text)."""
    path, name, cnames, cname, _, outside, proven, _ = job
    oracle = _oracle_of(job)
    folder = os.path.dirname(path)
    calls = [o for o in outside if o not in (oracle, choice_oracle(folder))]
    if not answers or None in answers or not calls:
        return {}
    found = None
    for c in cnames:
        cfg = cfront.CONFIGS[c]
        ip = interp
        if c != cname:
            try:
                ip = _interp(cfront.load(path, cfg), cfg)
                _link(ip, os.path.dirname(path), cfg, path, outside)
            except (Unsupported, cfront.Unreadable):
                return {}
        here = {}
        for a in answers:
            _answer(ip, folder, a)
            callee = passthrough.callee(ip, name, calls)
            if callee in proven and kind_of(callee) == kind:
                here[a] = callee
        found = here if found is None else {a: k for a, k in here.items() if found.get(a) == k}
    return found or {}


def _case_text(case):
    return ", ".join(f"{k} = {v}" for k, v in case.items()) or "the call"


def _describe(case, e):
    where = _localise()
    text = f"{_case_text(case)}: {e}"
    if where:
        text += f"; first difference: {where}"
    return text


def _localise():
    """The first specification round (in order) with a lane no kernel word matched."""
    sw = anf.SWEEP
    rounds = {}
    for tag in sw.tags():
        prefix, t, lane = tag
        rounds.setdefault((prefix, t), set()).add(lane)
    for (prefix, t) in sorted(rounds, key=lambda pt: (pt[0], pt[1])):
        missing = sorted(l for l in rounds[(prefix, t)] if (prefix, t, l) not in sw.hits)
        if missing:
            return (f"round {t} of permutation {prefix} (counting from its first round): "
                    f"no kernel word equals output lane{'s' if len(missing) > 1 else ''} "
                    f"{', '.join(map(str, missing[:6]))}{' ...' if len(missing) > 6 else ''}")
    return ""


def prove_folder(folder, jobs_n=2, quick=False, only=None, progress=None, configs=None):
    files, arch, configs = _files(folder, configs)
    jobs, results = [], []
    for file_jobs, file_results in _run_files(folder, files, configs, only, jobs_n, quick):
        jobs += file_jobs
        results += file_results
    # The dispatch wrappers, which rest on kernels of every file, once all are planned.
    _wrapper_helpers(jobs)
    waiting = [i for i, r in enumerate(results) if r is None]
    for i, r in zip(waiting, _run([jobs[i] for i in waiting], jobs_n, quick, True)):
        results[i] = r
    # A level proven given a helper that did not prove is proven again, whole.
    # By name and branch, whatever file: a wrapper rests on kernels of other files (a static
    # helper named alike in two files only makes this rerun more).
    failed = {(c, r.function) for r in results if r.status != "proved" for c in r.configs}
    known = {(c, r.function) for r in results for c in r.configs}
    again = [i for i, r in enumerate(results)
             if any((c, a) in failed or (c, a) not in known
                    for c in r.configs for a in r.assumed)]
    for i, r in zip(again, _run([jobs[i] for i in again], jobs_n, quick, False)):
        results[i] = r
    results += hidden(folder, files, configs, jobs, only)
    if progress:
        for r in results:
            progress(r)
    order = sorted(range(len(results)), key=lambda i: (results[i].file, results[i].function,
                                                        results[i].configs))
    return arch, [results[i] for i in order]


HIDDEN = "not proved"


def hidden(folder, files, configs, jobs, only=None):
    """A result (status HIDDEN) for each kernel entry point a file's own text defines that no
    configuration of the folder's architecture preprocesses into it: a branch of an `#if` none
    of them takes, which a compiler building the folder may take. Names a narrower `configs`
    left out but another configuration of the folder sees are not reported."""
    arch = folder_arch(folder, files)
    every = cfront.CONFIGS_FOR_ARCH.get(arch, ())
    seen = {(j[0], j[1]) for j in jobs}
    unreadable = {j[0] for j in jobs if j[1] is None}
    out = []
    for path in files:
        if path in unreadable:
            continue        # its line says the parser failed: its kernels are unnamed there
        names = [n for n in dict.fromkeys(cfront.defined_functions(_read(path)))
                 if kind_of(n) is not None and (path, n) not in seen and (not only or n in only)]
        if not names:
            continue
        ran = [c for c in dict.fromkeys(list(configs) + list(every))
               if cfront.CONFIGS[c].available()]
        for c in every:
            cfg = cfront.CONFIGS[c]
            if c in configs or not cfg.available() or not names:
                continue
            text = cfront.preprocess(path, cfg)
            if text is not None:
                names = [n for n in names if n not in cfront.defined_functions(cfront.clean(text))]
        idle = [c for c in every if not cfront.CONFIGS[c].available()]
        for n in names:
            out.append(Result(os.path.basename(path), n, [], HIDDEN, detail=(
                f"hidden from every configuration ({', '.join(ran)}): defined under a "
                "preprocessor branch none of them takes" +
                (f"; not run here: {', '.join(idle)}" if idle else ""))))
    return out


def _cost(job, quick):
    """A guess at a job's time, to start the long ones first (a long job left for last runs
    on one core alone): the text it interprets times its argument sets; a wrapper resting on
    its callees costs little whatever its cases."""
    name = job[1]
    if name is None or _oracle_of(job) in job[5]:
        return 0
    family, kind, n = kind_of(name)
    mod = keccak_obligations if family == "keccak" else chacha_obligations
    return job[7] * len(mod.cases(kind, n, quick=quick))


def _file_task(folder, path, configs, only, quick):
    """One file planned and its kernels proven where its parse trees were made: (its jobs,
    their results, None for a dispatch wrapper, proven once every file is planned)."""
    jobs = _plan_file(folder, path, configs, only)
    return jobs, [None if _oracle_of(job) in job[5] else prove_one(job, quick, True)
                  for job in jobs]


def _run_files(folder, files, configs, only, jobs_n, quick):
    """_file_task of each file, in the files' order. Each worker plans and proves whole
    files, so both cores parse from the start and no parse tree crosses a process."""
    if jobs_n <= 1 or len(files) <= 1:
        return [_file_task(folder, f, configs, only, quick) for f in files]
    # The largest files first: one left for last runs on one core alone.
    order = sorted(range(len(files)), key=lambda i: -os.path.getsize(files[i]))
    with concurrent.futures.ProcessPoolExecutor(jobs_n) as ex:
        futures = {i: ex.submit(_file_task, folder, files[i], configs, only, quick)
                   for i in order}
        return [futures[i].result() for i in range(len(files))]


def _run(jobs, jobs_n, quick, contracts):
    """The results of `jobs`, in their order."""
    if jobs_n <= 1 or len(jobs) <= 1:
        return [prove_one(j, quick, contracts) for j in jobs]
    order = sorted(range(len(jobs)), key=lambda i: -_cost(jobs[i], quick))
    with concurrent.futures.ProcessPoolExecutor(jobs_n) as ex:
        futures = {i: ex.submit(prove_one, jobs[i], quick, contracts) for i in order}
        return [futures[i].result() for i in range(len(jobs))]
