# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What a folder generated under --prefix P exports, and what is wrong with it: every exported
symbol, and every macro, function, type and configuration macro a header names, must begin
with P or upper(P), and none may carry two prefixes (P rs_, upper(P) RS_, RS_ upper(P)).

Under --keep-drop-in-names the drop-ins' names (DROP_IN_SYMBOLS, DROP_IN_NAMES) are the
exception: they must be their peers' own, unprefixed.

Used by tests/test_prefix_names.py (headers of every bundle), tests/e2e_bundle.py and
tests/e2e_peer_names.py (the symbols of the compiled objects, `nm -g --defined-only`).
"""

import re

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "defined", "__attribute__",
            "__declspec", "extern", "static", "void", "int", "char", "unsigned", "const",
            "struct", "union", "enum", "typedef", "size_t", "uint8_t", "uint16_t", "uint32_t",
            "uint64_t", "int32_t", "int64_t", "uintptr_t", "__cplusplus"}


# What a --keep-drop-in-names bundle leaves unprefixed, written from the peers' documented
# interfaces: XKCP's KeccakP-1600-SnP.h and KeccakP-1600-times{2,4,8}-SnP.h, chiapos' chacha8.h.
SNP_FUNCTIONS = ("Initialize", "AddByte", "AddBytes", "OverwriteBytes", "OverwriteWithZeroes",
                 "Permute_Nrounds", "Permute_12rounds", "Permute_24rounds", "ExtractBytes",
                 "ExtractAndAddBytes", "12rounds_FastLoop_Absorb", "ODDuplexingFastInOut",
                 "ODDuplexingFastOut", "ODDuplexingFastIn", "12rounds_ODDuplexingFastInOut",
                 "12rounds_ODDuplexingFastOut", "12rounds_ODDuplexingFastIn")
SNP_MACROS = ("implementation", "stateSizeInBytes", "stateAlignment", "StaticInitialize",
              "12rounds_FastLoop_supported")
PLSNP_FUNCTIONS = ("InitializeAll", "AddByte", "AddBytes", "AddLanesAll", "OverwriteBytes",
                   "OverwriteLanesAll", "OverwriteWithZeroes", "PermuteAll_4rounds",
                   "PermuteAll_6rounds", "PermuteAll_12rounds", "PermuteAll_24rounds",
                   "ExtractBytes", "ExtractLanesAll", "ExtractAndAddBytes",
                   "ExtractAndAddLanesAll", "12rounds_FastLoop_Absorb")
PLSNP_MACROS = ("implementation", "statesSizeInBytes", "statesAlignment", "StaticInitialize",
                "12rounds_FastLoop_supported")
DROP_IN_SYMBOLS = frozenset(
    [f"KeccakP1600_{f}" for f in SNP_FUNCTIONS] + ["KeccakF1600_FastLoop_Absorb"]
    + [f"KeccakP1600times{n}_{f}" for n in (2, 4, 8) for f in PLSNP_FUNCTIONS]
    + [f"KeccakF1600times{n}_FastLoop_Absorb" for n in (2, 4, 8)]
    + ["chacha8_keysetup", "chacha8_get_keystream"])
DROP_IN_NAMES = DROP_IN_SYMBOLS | frozenset(
    [f"KeccakP1600_{m}" for m in SNP_MACROS] + ["KeccakP1600_state",
                                                 "KeccakF1600_FastLoop_supported",
                                                 "KeccakF1600_ODFastLoop_supported"]
    + [f"KeccakP1600times{n}_{m}" for n in (2, 4, 8) for m in PLSNP_MACROS]
    + [f"KeccakP1600times{n}_states" for n in (2, 4, 8)]
    + [f"KeccakF1600times{n}_FastLoop_supported" for n in (2, 4, 8)]
    + ["chacha8_ctx"])


def header_names(text):
    """The names a header defines or tests, as (kind, name): macros it defines, macros it
    tests (configuration), functions it declares, the struct/union/enum tags and typedefs."""
    text = COMMENT.sub(" ", text)
    out = set()
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"#\s*define\s+(\w+)", s)
        if m:
            out.add(("macro", m.group(1)))
        if s.startswith("#"):
            for n in re.findall(r"(?:#\s*ifn?def\s+|defined\s*\(\s*)(\w+)", s):
                out.add(("configuration macro", n))
    code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    code = code.replace('extern "C" {', "").replace("extern \"C\"", "")
    for n in re.findall(r"^[\w \*]*?\b([A-Za-z_]\w*)\s*\(", code, re.M):
        out.add(("function", n))
    for n in re.findall(r"\b(?:struct|union|enum)\s+([A-Za-z_]\w*)", code):
        out.add(("type", n))
    for n in re.findall(r"\btypedef\b[^;{]*?(?:\{[^}]*\})?\s*\**\s*([A-Za-z_]\w*)\s*;", code,
                        re.S):
        out.add(("type", n))
    return {(k, n) for k, n in out if n not in KEYWORDS}


def problems(prefix, names, drop_ins=False):
    """[message] for each (kind, name) in `names` that lacks the prefix or has two; with
    `drop_ins` (a --keep-drop-in-names folder), also each drop-in name that has the prefix,
    while the drop-ins' own names pass unprefixed."""
    upper = prefix.upper()
    bad = []
    for kind, n in sorted(names):
        if kind == "configuration macro" and n.startswith("_"):
            continue            # the compiler's own (__x86_64__, _MSC_VER)
        if drop_ins and n in DROP_IN_NAMES:
            continue
        if drop_ins and n[len(prefix):] in DROP_IN_NAMES:
            bad.append(f"{kind} {n}: a drop-in name with the prefix")
            continue
        if not n.startswith((prefix, upper)):
            bad.append(f"{kind} {n}: without the prefix {prefix} / {upper}")
            continue
        rest = n[len(prefix):]
        if rest.startswith(("rs_", "RS_", prefix, upper)) or n.startswith("RS_" + upper):
            bad.append(f"{kind} {n}: two prefixes")
    return bad


def nm_symbols(nm_output):
    """The defined global symbols of `nm -g --defined-only` output."""
    return {l.split()[-1] for l in nm_output.splitlines() if len(l.split()) == 3}
