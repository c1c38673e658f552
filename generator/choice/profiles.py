# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Tuned profiles: which variant won on one (architecture, CPU, compiler, flags), recorded as
plain JSON under generator/profiles/, with every candidate's figure.

A profile applies only while its key matches: the same CPU model and features, the same
compiler and version and flags; a mismatch there drops the whole profile, with a warning
naming each field. Each kernel family also records a hash of the sources that shape it (its
model and templates): when those change, that family's choices are dropped (with a warning
naming the family) and the others still apply.
"""

import hashlib
import json
import os
import platform
import re

from . import kinds

GENERATOR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROFILE_DIR = os.path.join(GENERATOR, "profiles")
ROOT = os.path.dirname(GENERATOR)
# Per kind of kernel (kinds.KINDS), the sources whose change can change which variant wins.
SHAPING = {kind.name: kinds.sources(kind) for kind in kinds.KINDS}
FEATURES = ("ssse3", "bmi1", "bmi2", "avx2", "avx512f", "avx512vl", "avx512bw")


def family_of(kernel):
    """The kind whose sources shape a profile entry: keccak_scalar, keccak_x8_avx512 ->
    keccak_simd, keccak_x2_simd128 -> keccak_x2_arm, chacha; an entry no kind records is its
    own name (which lookup() refuses)."""
    kind = kinds.kind_of(kernel)
    return kind.name if kind else kernel


# A file's license line shapes no kernel: profiles tuned before the line was added still apply.
LICENSE_LINE = re.compile(rb"^.*SPDX-License-Identifier:.*\n", re.M)


def sources_hash(family):
    h = hashlib.sha256()
    for rel in SHAPING[family]:
        with open(os.path.join(ROOT, rel), "rb") as f:
            h.update(LICENSE_LINE.sub(b"", f.read(), count=1))
    return h.hexdigest()[:16]


def cpu_identity():
    model, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "unknown":
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return model, sorted(f for f in FEATURES if f in flags)


def cpu_family_model():
    """'family F model M' where /proc/cpuinfo says (x86): a virtual machine may name its CPU
    only "AMD EPYC", which Zen 4 and Zen 5 share; their AVX-512 differs (256-bit datapaths
    against 512-bit), so the family and model are part of the key."""
    got = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                name, _, value = line.partition(":")
                name = name.strip()
                if name in ("cpu family", "model", "CPU part", "CPU variant") and name not in got:
                    got[name] = value.strip()
                if not line.strip():
                    break
    except OSError:
        pass
    if "cpu family" in got and "model" in got:
        return f"family {got['cpu family']} model {got['model']}"
    # AArch64: the MIDR fields, as the bundles' rs_dispatch.c reads them (part, variant).
    if "CPU part" in got and "CPU variant" in got:
        return f"family {int(got['CPU part'], 16)} model {int(got['CPU variant'], 16)}"
    return ""


def key(compiler_id, version, cflags):
    model, features = cpu_identity()
    return {"arch": platform.machine(), "cpu": model, "cpu_id": cpu_family_model(),
            "features": features, "compiler": compiler_id, "version": version,
            "cflags": cflags,
            "sources": {family: sources_hash(family) for family in SHAPING}}


def engine_key(engine, engine_version, v8, compiler_id, version, cflags, families):
    """The key of a profile raced under a wasm engine: its "CPU" is the engine and its version
    (node's, and the V8 inside it, which compiles the module) on the host CPU, whose model
    and family/model are recorded as a native profile's are; the compiler is the one that
    built the modules (clang), `families` the shaping families it tuned."""
    model, features = cpu_identity()
    return {"arch": "wasm32", "engine": engine, "engine_version": engine_version, "v8": v8,
            "cpu": model, "cpu_id": cpu_family_model(), "features": features,
            "compiler": compiler_id, "version": version, "cflags": cflags,
            "sources": {family: sources_hash(family) for family in families}}


def path_for(k, directory=None):
    """generator/profiles/<arch>[-<engine><version>]-<cpu name>[-f<family>m<model>]-
    <compiler>.json (the engine for a profile raced under one: wasm32-node20.20.2-...)"""
    slug = re.sub(r"[^a-z0-9]+", "-", k["cpu"].lower()).strip("-")
    ident = re.sub(r"family (\S+) model (\S+)", r"-f\1m\2", k.get("cpu_id") or "")
    engine = (re.sub(r"[^a-z0-9.]+", "-", f"-{k['engine']}{k.get('engine_version', '')}".lower())
              if k.get("engine") else "")
    return os.path.join(directory or PROFILE_DIR,
                        f"{k['arch']}{engine}-{slug}{ident}-{k['compiler']}.json")


def host_path(compiler_id):
    """Where this machine's profile for a compiler is (or would be)."""
    return path_for({"arch": platform.machine(), "cpu": cpu_identity()[0],
                     "cpu_id": cpu_family_model(), "compiler": compiler_id})


def save(k, choice, candidates, command, metrics=None, confirmations=None, ties=None,
         path=None):
    """Write the profile of key `k`: `choice` maps each kernel (keccak_scalar,
    keccak_x8_avx512, ..., chacha) to its winner, `candidates` each kernel to every
    candidate's row, `metrics` each kernel to what its figure means, `confirmations` each
    kernel to the second run of its winner against its untuned default, `ties` each kernel
    whose fastest candidate did not beat the default by more than the spread to that record
    (generator/decide.py; the default is its choice). `ties` is written even when empty, so a
    reader can tell "no tie" from a profile written before the rule. `path`: where, when
    not path_for(k) (a bundle profile)."""
    path = path or path_for(k)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = {"key": k, "choice": choice, "candidates": candidates, "metrics": metrics or {},
            "confirmations": confirmations or {}, "ties": ties or {}, "measured_with": command}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return path


def load_own(k):
    """The profile stored under key `k` (this machine and compiler), or None."""
    path = path_for(k)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def lookup(compiler_id, version, cflags):
    """(choices, warnings) for this machine and compiler: the profile's winner per kernel
    whose key matches, and one warning per mismatch naming it ({} and [] without a profile)."""
    k = key(compiler_id, version, cflags)
    path = path_for(k)
    if not os.path.exists(path):
        return {}, []
    with open(path) as f:
        data = json.load(f)
    where = os.path.relpath(path, ROOT)
    wrong = [f"{field} is {k[field]!r}, profile has {data['key'].get(field)!r}"
             for field in k if field != "sources" and data["key"].get(field) != k[field]]
    if wrong:
        return {}, [f"ignoring {where}: " + "; ".join(wrong)]
    recorded = data["key"].get("sources")
    recorded = recorded if isinstance(recorded, dict) else {}
    choices, stale, warnings = {}, {}, []
    for kernel, name in sorted(data["choice"].items()):
        family = family_of(kernel)
        if family not in SHAPING:
            warnings.append(f"ignoring {kernel} in {where}: not a kernel this generator tunes")
        elif recorded.get(family) != k["sources"][family]:
            stale.setdefault(family, []).append(kernel)
        else:
            choices[kernel] = name
    for family, kernels in stale.items():
        warnings.append(f"ignoring {', '.join(kernels)} in {where}: sources.{family} is "
                        f"{k['sources'][family]!r}, profile has {recorded.get(family)!r} "
                        f"(its model or templates changed since it was tuned)")
    return choices, warnings
