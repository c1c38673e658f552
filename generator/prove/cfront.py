# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A C file as one compiler sees it: preprocessed under that compiler's predefined macros,
inline assembly lifted out of the text, then parsed (pycparser).

The preprocessor is the compiler's own (gcc, clang or tcc with -nostdinc), so `#if` branches,
`__has_builtin` and macro expansion are exactly the compiler's; only the system headers are
replaced by the declarations in include/ (types and nothing else: intrinsics are modelled in
intrinsics.py, not declared).
"""

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from ..errors import UsageError

INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")

_COMMON = ["-D__STDC__=1", "-D__STDC_VERSION__=199901L", "-D__CHAR_BIT__=8"]
_LE = ["-D__ORDER_LITTLE_ENDIAN__=1234", "-D__ORDER_BIG_ENDIAN__=4321",
       "-D__BYTE_ORDER__=1234"]
_BE = ["-D__ORDER_LITTLE_ENDIAN__=1234", "-D__ORDER_BIG_ENDIAN__=4321",
       "-D__BYTE_ORDER__=4321"]
_GNU = ["-D__GNUC__=12", "-D__GNUC_MINOR__=2", "-D__LP64__=1"]
_CLANG = ["-D__clang__=1", "-D__clang_major__=14", "-D__GNUC__=4", "-D__GNUC_MINOR__=2",
          "-D__LP64__=1"]
_X86 = ["-D__x86_64__=1", "-D__x86_64=1", "-D__SSE2__=1"]
_ARM = ["-D__aarch64__=1", "-D__ARM_NEON=1", "-D__ARM_ARCH=8"]
# The operating systems' macros, as their compilers predefine them: a bundle may take a branch
# on them (out/aarch64 builds its NEON and SHA3 paths on Linux only, where getauxval tells
# what the CPU has). tcc predefines its host's (Linux here) itself.
_LINUX = ["-D__linux__=1", "-D__linux=1", "-D__gnu_linux__=1", "-D__unix__=1", "-D__unix=1",
          "-D__ELF__=1"]
_APPLE = ["-D__APPLE__=1", "-D__MACH__=1"]
_WINDOWS = ["-D_WIN64=1", "-D_WIN32=1"]
# clang only builds the SHA3 extension's code when the command line turns it on
# (-march=armv8.2-a+sha3); gcc turns it on inside the file.
_ARM_SHA3 = ["-D__ARM_FEATURE_SHA3=1", "-D__ARM_FEATURE_SHA512=1"]


@dataclass(frozen=True)
class Config:
    """One compiler on one architecture and operating system: the preprocessor that decides
    the branches."""
    name: str
    cpp: str            # gcc, clang or tcc
    defines: tuple
    arch: str           # x86_64, aarch64, s390x
    big_endian: bool = False

    def available(self):
        return shutil.which(self.cpp) is not None


def _config(name, cpp, arch, *defines, big_endian=False):
    return name, Config(name, cpp, tuple(_COMMON + [d for ds in defines for d in ds]), arch,
                        big_endian)


CONFIGS = dict([
    _config("gcc-x86_64", "gcc", "x86_64", _GNU, _X86, _LE, _LINUX),
    _config("clang-x86_64", "clang", "x86_64", _CLANG, _X86, _LE, _LINUX),
    _config("tcc-x86_64", "tcc", "x86_64", _LE),
    _config("msvc-x64", "gcc", "x86_64", ["-D_MSC_VER=1930", "-D_M_X64=100"], _WINDOWS),
    # AArch64 without an operating system's macros (bare metal, the BSDs): the portable
    # folder's AArch64 branch, and the aarch64 bundle's build without its vector paths.
    _config("gcc-aarch64", "gcc", "aarch64", _GNU, _ARM, _LE),
    _config("gcc-aarch64-linux", "gcc", "aarch64", _GNU, _ARM, _LE, _LINUX),
    _config("clang-aarch64-linux", "clang", "aarch64", _CLANG, _ARM, _LE, _LINUX),
    _config("clang-aarch64-linux-sha3", "clang", "aarch64", _CLANG, _ARM, _ARM_SHA3, _LE,
            _LINUX),
    _config("clang-aarch64-apple", "clang", "aarch64", _CLANG, _ARM, _LE, _APPLE),
    # MSVC for ARM64 predefines neither __aarch64__ nor __ARM_NEON.
    _config("msvc-arm64", "gcc", "aarch64", ["-D_MSC_VER=1930", "-D_M_ARM64=1"], _WINDOWS),
    _config("gcc-aarch64_be", "gcc", "aarch64", _GNU, _ARM, _BE, ["-D__AARCH64EB__=1"],
            _LINUX, big_endian=True),
    _config("gcc-s390x", "gcc", "s390x", _GNU, _BE, ["-D__s390x__=1", "-D__s390__=1"], _LINUX,
            big_endian=True),
])

# The compilers and systems each kind of folder is built for (docs/targets.md).
CONFIGS_FOR_ARCH = {
    "x86_64": ("gcc-x86_64", "clang-x86_64", "tcc-x86_64", "msvc-x64"),
    "aarch64": ("gcc-aarch64-linux", "clang-aarch64-linux", "clang-aarch64-linux-sha3",
                "clang-aarch64-apple", "gcc-aarch64", "msvc-arm64", "gcc-aarch64_be"),
    "portable": ("gcc-x86_64", "clang-x86_64", "tcc-x86_64", "msvc-x64", "gcc-aarch64",
                 "gcc-s390x"),
}


class Unreadable(Exception):
    """C the prover's parser does not read: the file's kernels are reported not supported."""


def preprocess(path, config, extra_defines=()):
    folder = os.path.dirname(os.path.abspath(path))
    if config.cpp == "tcc":
        cmd = ["tcc", "-E", "-nostdinc"]
    else:
        cmd = [config.cpp, "-E", "-P", "-undef", "-nostdinc", "-std=c99"]
        if config.cpp == "clang":
            cmd.append("-Wno-builtin-macro-redefined")
    cmd += ["-I", INCLUDE, "-I", folder] + list(config.defines) + list(extra_defines) + [path]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        # An #error is a branch this compiler does not build: nothing to prove there.
        if "#error" in proc.stderr or "error:" in proc.stderr and "#error" in proc.stderr:
            return None
        first = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr[:200])
        if "#error" in first or "error" in first and "needs" in first:
            return None
        raise UsageError(f"{path}: the {config.cpp} preprocessor failed: {first.strip()}")
    text = proc.stdout
    if config.cpp == "tcc":
        text = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    return text


@dataclass
class AsmStmt:
    template: str
    outputs: list      # [(constraint, n_args)]
    inputs: list
    clobbers: list


_ASM_START = re.compile(r"\b(?:__asm__|__asm|asm)\s*(?:(?:volatile|__volatile__)\s*)?\(")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _match_paren(text, i):
    """Index just past the ')' closing the '(' at text[i - 1], skipping strings."""
    depth = 1
    while depth:
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return i


def _split_top(text, sep):
    parts, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def _unescape(s):
    return s.encode().decode("unicode_escape")


def lift_asm(text):
    """Replace every GNU asm statement by a call __rs_asm(k, lvalues..., rvalues...), which
    pycparser parses; returns the text and the statements by k."""
    out, stmts, pos = [], [], 0
    for m in _ASM_START.finditer(text):
        if m.start() < pos:
            continue
        end = _match_paren(text, m.end())
        body = text[m.end():end - 1]
        sections = _split_top(body, ":")
        template = "".join(_unescape(s) for s in _STRING.findall(sections[0]))
        operands = []
        kinds = []
        for sec in sections[1:3]:
            ops = []
            for op in _split_top(sec, ","):
                op = op.strip()
                if not op:
                    continue
                cm = re.match(r'(?:\[\w+\]\s*)?"([^"]*)"\s*\((.*)\)\s*$', op, re.S)
                if not cm:
                    raise UsageError(f"an asm operand the prover cannot read: {op[:60]}")
                ops.append(cm.group(1))
                operands.append(cm.group(2))
            kinds.append(ops)
        while len(kinds) < 2:
            kinds.append([])
        clobbers = _STRING.findall(sections[3]) if len(sections) > 3 else []
        stmts.append(AsmStmt(template, kinds[0], kinds[1], clobbers))
        out.append(text[pos:m.start()])
        out.append(f"__rs_asm({len(stmts) - 1}" + "".join(f", {o}" for o in operands) + ")")
        pos = end
    out.append(text[pos:])
    return "".join(out), stmts


# A GNU statement expression, `({ ... })`: pycparser reads no such thing.
_STMT_EXPR_START = re.compile(r"\(\s*\{")
STMT_EXPR = "__rs_stmt_expr"


def stmt_expr_block(k):
    """The name of the function holding the k-th lifted statement expression's block."""
    return f"{STMT_EXPR}_{k}"


def lift_stmt_exprs(text):
    """Replace every GNU statement expression by a call __rs_stmt_expr(k) and append its
    block as the body of a function __rs_stmt_expr_k, which pycparser parses; the interpreter
    runs that block in the caller's frame (interp.Interp._stmt_expr). Nested ones are lifted
    from the inside out."""
    bodies = []

    def walk(s):
        out, pos = [], 0
        while True:
            m = _STMT_EXPR_START.search(s, pos)
            if m is None:
                break
            end = _match_paren(s, m.start() + 1)
            inner = s[m.end():end - 1].rstrip()
            if not inner.endswith("}"):
                raise Unreadable("a statement expression that does not end its block")
            body = walk(inner[:-1])
            bodies.append(body)
            out.append(s[pos:m.start()])
            out.append(f"{STMT_EXPR}({len(bodies) - 1})")
            pos = end
        out.append(s[pos:])
        return "".join(out)

    text = walk(text)
    return text + "".join(f"\nvoid {stmt_expr_block(k)}(void) {{{b}}}\n"
                          for k, b in enumerate(bodies))


_CLEAN = [
    (re.compile(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)"), ""),
    (re.compile(r"__declspec\s*\(\s*\w+\s*\)"), ""),
    (re.compile(r"\b__forceinline\b"), "inline"),
    (re.compile(r"\b__inline__\b|\b__inline\b"), "inline"),
    (re.compile(r"\b__restrict__\b|\b__restrict\b|\brestrict\b"), ""),
    (re.compile(r"\b__extension__\b"), ""),
    (re.compile(r"^\s*#\s*pragma.*$", re.M), ""),
    (re.compile(r"\b_Pragma\s*\(\s*\"[^\"]*\"\s*\)"), ""),
]


def clean(text):
    for pat, rep in _CLEAN:
        text = pat.sub(rep, text)
    return text


@dataclass
class Unit:
    """One file as one configuration compiles it."""
    path: str
    config: Config
    text: str
    ast: object
    asm: list
    digest: str


# Units already parsed in this process, by file, configuration and the folder's contents: the
# plan parses every file under every branch, and the worker processes (forked after it)
# prove many functions of one file. A Unit is only read once made.
_LOADED = {}


def _stamp(path):
    """What a file's preprocessed text depends on that can change under a run: the C and
    headers of its folder, as names, sizes and modification times."""
    d = os.path.dirname(os.path.abspath(path))
    out = []
    for f in sorted(os.listdir(d)):
        if f.endswith((".c", ".h")):
            st = os.stat(os.path.join(d, f))
            out.append((f, st.st_size, st.st_mtime_ns))
    return tuple(out)


def mentions(path, config, names):
    """Whether the file as `config` preprocesses it has any of `names` in it (a function it
    defines is spelt out there, whatever macros made the name)."""
    key = _key(path, config, ())
    text = _PREPROCESSED[key] if key in _PREPROCESSED else preprocess(path, config)
    if text is None or not any(n in text for n in names):
        return False
    _PREPROCESSED[key] = text     # the plan loads it next
    return True


def load(path, config, extra_defines=()):
    key = _key(path, config, extra_defines)
    if key not in _LOADED:
        _LOADED[key] = _load(path, config, extra_defines)
    return _LOADED[key]


def _key(path, config, extra_defines):
    return (os.path.abspath(path), config, tuple(extra_defines), _stamp(path))


# Texts mentions() found a name in, keyed like _LOADED, until load() parses them (then
# dropped: the unit keeps its own).
_PREPROCESSED = {}


def _load(path, config, extra_defines):
    import pycparser
    from pycparser import c_parser

    key = _key(path, config, extra_defines)
    text = (_PREPROCESSED.pop(key) if key in _PREPROCESSED
            else preprocess(path, config, extra_defines))
    if text is None:
        return None
    text = clean(text)
    text, asm = lift_asm(text)
    text = _squeeze(lift_stmt_exprs(text))
    digest = hashlib.sha256(text.encode()).hexdigest()
    # The asm statements are what the text's __rs_asm(k, ...) calls stand for: part of the key.
    key = (os.path.basename(path), digest, repr(asm))
    if key not in _PARSED:
        parser = c_parser.CParser()
        try:
            _PARSED[key] = parser.parse(text, filename=os.path.basename(path))
        except pycparser.plyparser.ParseError as e:
            _PARSED[key] = e
    ast = _PARSED[key]
    if isinstance(ast, pycparser.plyparser.ParseError):
        raise Unreadable(f"the prover's C parser failed under {config.name}: {ast}") from None
    return Unit(path, config, text, ast, asm, digest)


# Parse trees by text: most files preprocess to the same text under gcc, clang and MSVC's
# macros but for blank lines and indentation, and parsing is most of the plan's time. A tree
# is only read once made (the interpreter keeps what it learns per Interp).
_PARSED = {}


def _squeeze(text):
    """The text without blank lines, each line's outer whitespace, and its inner runs of
    blanks where no literal could hold them: the same C to the parser."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            out.append(line if '"' in line or "'" in line else " ".join(line.split()))
    return "\n".join(out) + "\n"


def addresses_taken(fd):
    """The names whose address (`&name`) a function body takes, memoised per definition: both
    engines keep such a variable in memory, where a pointer can reach it, and every other one
    as a plain value."""
    hit = _TAKEN.get(id(fd))
    if hit is not None and hit[0] is fd:
        return hit[1]
    from pycparser import c_ast

    got = set()

    class V(c_ast.NodeVisitor):
        def visit_UnaryOp(self, n):
            if n.op == "&" and isinstance(n.expr, c_ast.ID):
                got.add(n.expr.name)
            self.generic_visit(n)

    V().visit(fd.body)
    _TAKEN[id(fd)] = (fd, got)     # fd held, so its id stays its own
    return got


_TAKEN = {}


# Comments and strings (kept: a string may hold "/*"), and preprocessor directives with their
# continuation lines.
_COMMENT_OR_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*',
                                re.S)
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_CALL_OR_DEF = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}


def defined_functions(text):
    """The names of the functions a C text defines (a name, its parenthesised parameters,
    then a body), read without a preprocessor: on a file's own text that is every function
    some branch of its `#if`s defines, whichever branches a compiler takes."""
    text = _COMMENT_OR_STRING.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text)
    text = _DIRECTIVE.sub("", text)
    out = []
    for m in _CALL_OR_DEF.finditer(text):
        if m.group(1) in _KEYWORDS:
            continue
        try:
            end = _match_paren(text, m.end())
        except IndexError:
            continue
        if text[end:end + 200].lstrip().startswith("{"):
            out.append(m.group(1))
    return out
