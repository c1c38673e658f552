"""Tuned profiles: which variant won on one (architecture, CPU, compiler, flags), recorded as
plain JSON under generator/profiles/, with every candidate's figure.

A profile applies only while its key matches: the same CPU model and features, the same
compiler and version and flags, and the same kernel sources (a hash of the model and
templates that shape the scalar kernel). A mismatch is reported field by field.
"""

import hashlib
import json
import os
import platform
import re

from . import variants
from .errors import UsageError

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE_DIR = os.path.join(HERE, "profiles")
ROOT = os.path.dirname(HERE)
# The sources whose change can change which variant wins.
SHAPING = ("generator/keccak.py", "generator/x86asm.py", "templates/keccak_p1600_scalar.c.j2",
           "templates/keccak_p1600_x86asm.c.j2",
           "templates/_rotate64.j2", "templates/_portability.j2")
FEATURES = ("bmi1", "bmi2", "avx2", "avx512f", "avx512vl")


def sources_hash():
    h = hashlib.sha256()
    for rel in SHAPING:
        with open(os.path.join(ROOT, rel), "rb") as f:
            h.update(f.read())
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


def key(compiler_id, version, cflags):
    model, features = cpu_identity()
    return {"arch": platform.machine(), "cpu": model, "features": features,
            "compiler": compiler_id, "version": version, "cflags": cflags,
            "sources": sources_hash()}


def path_for(k):
    slug = re.sub(r"[^a-z0-9]+", "-", k["cpu"].lower()).strip("-")
    return os.path.join(PROFILE_DIR, f"{k['arch']}-{slug}-{k['compiler']}.json")


def save(k, choice, candidates, command):
    os.makedirs(PROFILE_DIR, exist_ok=True)
    data = {"key": k, "choice": choice, "candidates": candidates, "measured_with": command}
    path = path_for(k)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return path


def lookup(compiler_id, version, cflags):
    """(variant or None, warning or None) for this machine and compiler."""
    k = key(compiler_id, version, cflags)
    path = path_for(k)
    if not os.path.exists(path):
        return None, None
    with open(path) as f:
        data = json.load(f)
    wrong = [f"{field} is {k[field]!r}, profile has {data['key'].get(field)!r}"
             for field in k if data["key"].get(field) != k[field]]
    if wrong:
        return None, f"ignoring {os.path.relpath(path, ROOT)}: " + "; ".join(wrong)
    return variants.keccak_from_name(data["choice"]["keccak_scalar"]), None
