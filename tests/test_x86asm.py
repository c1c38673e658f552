"""The x86-64 lowering against the reference, before any assembler sees it: the instructions
generator/x86asm.py emits are executed here, one by one, on a model of the registers and
the two lane sets, and must give Keccak-p[1600] for every round count.

    python3 -m unittest tests.test_x86asm
"""

import random
import re
import unittest

from generator import keccak, reference, x86asm

MASK = (1 << 64) - 1
OPERAND = re.compile(r"\$(\d+)|(%\w+)|(-?\d*)\((%\w+)\)")


class Machine:
    """Just the instructions the lowering uses, with AT&T operand order."""

    def __init__(self, memory):
        self.reg = dict.fromkeys(x86asm.SAVED + (x86asm.D[0],), 0)
        self.mem = memory       # {(base register, byte offset): 64-bit word}

    def read(self, op):
        imm, reg, disp, base = OPERAND.fullmatch(op).groups()
        if imm is not None:
            return int(imm)
        if reg is not None:
            return self.reg[reg]
        return self.mem[(base, int(disp or 0))]

    def write(self, op, value):
        _, reg, disp, base = OPERAND.fullmatch(op).groups()
        if reg is not None:
            self.reg[reg] = value & MASK
        else:
            self.mem[(base, int(disp or 0))] = value & MASK

    def run(self, lines):
        for line in lines:
            mnemonic, _, rest = line.partition(" ")
            ops = [o.strip() for o in rest.split(", ")] if rest else []
            v = [self.read(o) for o in ops[:-1]]
            dst = ops[-1]
            if mnemonic == "movq":
                self.write(dst, v[0])
            elif mnemonic == "xorq":
                self.write(dst, self.read(dst) ^ v[0])
            elif mnemonic == "andq":
                self.write(dst, self.read(dst) & v[0])
            elif mnemonic == "orq":
                self.write(dst, self.read(dst) | v[0])
            elif mnemonic == "notq":
                self.write(dst, ~self.read(dst))
            elif mnemonic == "addq":
                self.write(dst, self.read(dst) + v[0])
            elif mnemonic == "rolq":
                self.write(dst, reference.rol64(self.read(dst), v[0]))
            elif mnemonic == "rorxq":
                self.write(dst, reference.rol64(v[1], 64 - v[0]))
            elif mnemonic == "andnq":       # AT&T: andn src2, src1, dst = ~src1 & src2
                self.write(dst, ~v[1] & v[0])
            elif mnemonic != "cmpq":
                raise AssertionError(f"the model does not know '{line}'")


def run_kernel(low, state, rounds, pattern):
    """What the template does around the asm block, then the block as the loop runs it."""
    a = [~w & MASK if i in pattern else w for i, w in enumerate(state)]
    rc = keccak.round_constants()
    memory = {(x86asm.STATE, 8 * i): w for i, w in enumerate(a)}
    memory.update({(x86asm.SCRATCH, 8 * i): w for i, w in enumerate(a)})  # odd entry copy
    table = "%table"
    memory.update({(table, 8 * i): c for i, c in enumerate(rc)})
    memory[(x86asm.SCRATCH, 8 * x86asm.SCRATCH_RC)] = 8 * (len(rc) - rounds)
    m = Machine(memory)
    m.run(low.save)
    # The cursor is an address; here the table's own base register reads it.
    cursor = m.reg[x86asm.RC]
    done = 0
    half = "second" if rounds % 2 else "first"
    while done < rounds:
        m.reg[x86asm.RC] = cursor
        # A memory operand (%r15) names the table through the cursor register.
        m.mem[(x86asm.RC, 0)] = rc[cursor // 8]
        m.run(low.first_round if half == "first" else low.second_round)
        cursor = m.reg[x86asm.RC]
        half = "second" if half == "first" else "first"
        done += 1
    m.run(low.restore)
    out = [memory[(x86asm.STATE, 8 * i)] for i in range(keccak.LANES)]
    return [~w & MASK if i in pattern else w for i, w in enumerate(out)]


class LoweringTest(unittest.TestCase):
    def test_every_shape_every_round_count(self):
        rnd = random.Random(1600)
        for lc in (False, True):
            pattern = keccak.BEBIGOKIMISA if lc else frozenset()
            for rotate in x86asm.ROTATIONS:
                low = x86asm.lower(lc, rotate)
                for rounds in (1, 2, 3, 12, 23, 24):
                    state = [rnd.getrandbits(64) for _ in range(keccak.LANES)]
                    with self.subTest(lc=lc, rotate=rotate, rounds=rounds):
                        self.assertEqual(run_kernel(low, state, rounds, pattern),
                                         reference.keccak_p1600(list(state), rounds))

    def test_saved_registers_restored(self):
        low = x86asm.lower(True, "rol")
        m = Machine({(x86asm.SCRATCH, 8 * (x86asm.SCRATCH_SAVE + k)): 0
                     for k in range(len(x86asm.SAVED))})
        for k, r in enumerate(x86asm.SAVED):
            m.reg[r] = 1000 + k
        m.run(low.save[:-1])
        for r in x86asm.SAVED:
            m.reg[r] = 0
        m.run(low.restore)
        self.assertEqual([m.reg[r] for r in x86asm.SAVED],
                         [1000 + k for k in range(len(x86asm.SAVED))])

    def test_only_the_operand_registers_escape_the_save_list(self):
        low = x86asm.lower(True, "rorx")
        used = set(re.findall(r"%\w+", " ".join(low.first_round + low.second_round)))
        self.assertEqual(used - set(x86asm.SAVED),
                         {x86asm.STATE, x86asm.SCRATCH, x86asm.D[0]})


if __name__ == "__main__":
    unittest.main()
