"""Test vectors: the official files parsed, plus vectors computed by the Python reference.

One source for every test: templates embed what this module returns, nothing else.
"""

import os
import random
import re

from . import keccak, reference
from .errors import UsageError

# The one seed of every computed vector, so generated tests are byte-identical on every run.
SEED = 0x726F756E64736D74  # "roundsmt"


def default_dir():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(os.path.dirname(here), "shared", "vectors")


def _read(vectors_dir, name):
    path = os.path.join(vectors_dir, name)
    try:
        with open(path, encoding="ascii") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read test vectors {path}: {e.strerror}; "
                         "pass --vectors DIR (the folder with the official vector files)")


def _lane_block(lines, start):
    """Five lines of five hex lanes, printed row y by row y, starting at lines[start]."""
    words = " ".join(lines[start:start + 5]).split()
    return [int(w, 16) for w in words]


def keccak_intermediate(vectors_dir):
    """Parse KeccakF-1600-IntermediateValues.txt.

    Returns (round_constants, rho_offsets, examples); each example is a dict with 'input', a
    list of 24 rounds each a dict step -> state, and 'output'.
    """
    text = _read(vectors_dir, "KeccakF-1600-IntermediateValues.txt")
    rc = [int(v, 16) for _, v in sorted(
        (int(i), v) for i, v in re.findall(r"RC\[(\d+)\]\[0\]\[0\] = ([0-9A-F]+)", text))]
    rho = [0] * 25
    for x, y, v in re.findall(r"RhoOffset\[(\d)\]\[(\d)\] =\s*(\d+)", text):
        rho[keccak.index(int(x), int(y))] = int(v)
    lines = text.splitlines()
    examples = []
    current = None
    for n, line in enumerate(lines):
        if line.startswith("Same, with lanes as 64-bit words:"):
            current = {"input": _lane_block(lines, n + 1), "rounds": []}
            examples.append(current)
        elif line.startswith("--- Round "):
            current["rounds"].append({})
        elif line.startswith("After ") and current is not None:
            step = line[len("After "):].rstrip(":")
            current["rounds"][-1][step] = _lane_block(lines, n + 1)
        elif line.startswith("State after permutation:"):
            current["output"] = reference.state_from_bytes(bytes.fromhex(lines[n + 1]))
    return rc, rho, examples


def random_states(count, rng):
    return [[rng.getrandbits(64) for _ in range(25)] for _ in range(count)]


def keccak_cases(vectors_dir, random_count=64):
    """(name, rounds, input, expected) rows for the permutation tests.

    Official: the zero state after one and two permutations. Computed: 12-round outputs, every
    round count 0..24 (so every entry point of an unrolled loop is taken), and random states.
    """
    _, _, examples = keccak_intermediate(vectors_dir)
    rng = random.Random(SEED)
    cases = []
    for n, ex in enumerate(examples):
        cases.append((f"official zero state, permutation {n + 1}", 24, ex["input"], ex["output"]))
    zero = [0] * 25
    cases.append(("zero state, 12 rounds", 12, zero, reference.keccak_p1600(zero, 12)))
    for rounds in range(keccak.MAX_ROUNDS + 1):
        state = random_states(1, rng)[0]
        cases.append((f"random state, {rounds} rounds", rounds, state,
                      reference.keccak_p1600(state, rounds)))
    for i, state in enumerate(random_states(random_count, rng)):
        rounds = 24 if i % 2 == 0 else 12
        cases.append((f"random state {i}, {rounds} rounds", rounds, state,
                      reference.keccak_p1600(state, rounds)))
    return cases


def keccak_multi_cases(instances=8):
    """(rounds, inputs, outputs) for every round count 0..24: `instances` independent random
    states each, so every lane of every x-N kernel sees different data."""
    rng = random.Random(SEED ^ instances)
    cases = []
    for rounds in range(keccak.MAX_ROUNDS, -1, -1):
        ins = random_states(instances, rng)
        cases.append((rounds, ins, [reference.keccak_p1600(s, rounds) for s in ins]))
    return cases
