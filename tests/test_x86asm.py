# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The x86-64 lowering against the reference, before any assembler sees it: the instructions
generator/x86asm.py emits are executed here, one by one, on a model of the registers and
the two lane sets, and must give Keccak-p[1600] for every round count.

    python3 -m unittest tests.test_x86asm
"""

import random
import re
import unittest

from generator.model import keccak_maths as keccak, reference, x86_lowering as x86asm

MASK = (1 << 64) - 1
OPERAND = re.compile(r"\$(\d+)|(%\w+)|(-?\d*)\((%\w+)\)")


class Machine:
    """Just the instructions the lowering uses, AT&T operand order, a flat word memory."""

    def __init__(self, memory, registers):
        self.mem = memory           # byte address -> 64-bit word
        self.reg = dict(registers)
        self.zero = False

    def addr(self, disp, base):
        return self.reg[base] + int(disp or 0)

    def read(self, op):
        imm, reg, disp, base = OPERAND.fullmatch(op).groups()
        if imm is not None:
            return int(imm)
        if reg is not None:
            return self.reg[reg]
        return self.mem[self.addr(disp, base)]

    def write(self, op, value):
        _, reg, disp, base = OPERAND.fullmatch(op).groups()
        if reg is not None:
            self.reg[reg] = value & MASK
        else:
            self.mem[self.addr(disp, base)] = value & MASK

    def jump(self, lines, pc, target):
        label, direction = target[:-1] + ":", target[-1]
        order = range(pc + 1, len(lines)) if direction == "f" else range(pc - 1, -1, -1)
        return next(i for i in order if lines[i] == label)

    def run(self, lines):
        pc = 0
        while pc < len(lines):
            line = lines[pc]
            mnemonic, _, rest = line.partition(" ")
            ops = [o.strip() for o in rest.split(", ")] if rest else []
            if mnemonic.endswith(":"):
                pass
            elif mnemonic in ("jmp", "jnz", "jne"):
                if mnemonic == "jmp" or not self.zero:
                    pc = self.jump(lines, pc, ops[0])
                    continue
            elif mnemonic == "testq":
                self.zero = (self.read(ops[0]) & self.read(ops[1])) == 0
            elif mnemonic == "cmpq":
                self.zero = self.read(ops[0]) == self.read(ops[1])
            else:
                self.step(mnemonic, ops, line)
            pc += 1

    def step(self, mnemonic, ops, line):
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
        else:
            raise AssertionError(f"the model does not know '{line}'")


STATE_AT, SCRATCH_AT, TABLE_AT = 0x10000, 0x20000, 0x30000


def run_kernel(lines, state, rounds, pattern):
    """What the template does around the asm block, then the block itself."""
    a = [~w & MASK if i in pattern else w for i, w in enumerate(state)]
    rc = keccak.round_constants()
    memory = {STATE_AT + 8 * i: w for i, w in enumerate(a)}
    memory.update({SCRATCH_AT + 8 * i: 0 for i in range(x86asm.SCRATCH_WORDS)})
    if rounds % 2:
        memory.update({SCRATCH_AT + 8 * i: w for i, w in enumerate(a)})
    memory.update({TABLE_AT + 8 * i: c for i, c in enumerate(rc)})
    memory[SCRATCH_AT + 8 * x86asm.SCRATCH_RC] = TABLE_AT + 8 * (len(rc) - rounds)
    memory[SCRATCH_AT + 8 * x86asm.SCRATCH_END] = TABLE_AT + 8 * len(rc)
    registers = dict.fromkeys(x86asm.SAVED, 0xDEAD)
    registers.update({x86asm.STATE: STATE_AT, x86asm.SCRATCH: SCRATCH_AT,
                      x86asm.ODD: rounds % 2})
    m = Machine(memory, registers)
    m.run(lines)
    for r in x86asm.SAVED:
        assert m.reg[r] == 0xDEAD, f"{r} not restored"
    out = [memory[STATE_AT + 8 * i] for i in range(keccak.LANES)]
    return [~w & MASK if i in pattern else w for i, w in enumerate(out)]


class LoweringTest(unittest.TestCase):
    def test_every_shape_every_round_count(self):
        rnd = random.Random(1600)
        for lc in (False, True):
            pattern = keccak.BEBIGOKIMISA if lc else frozenset()
            for parity in x86asm.PARITIES:
                for rotate in x86asm.ROTATIONS:
                    lines = x86asm.lower(lc, rotate, parity)
                    for rounds in (1, 2, 3, 12, 23, 24):
                        state = [rnd.getrandbits(64) for _ in range(keccak.LANES)]
                        with self.subTest(lc=lc, parity=parity, rotate=rotate, rounds=rounds):
                            self.assertEqual(run_kernel(lines, state, rounds, pattern),
                                             reference.keccak_p1600(list(state), rounds))

    def test_only_the_operands_escape_the_save_list(self):
        for parity in x86asm.PARITIES:
            used = set(re.findall(r"%\w+", " ".join(x86asm.lower(True, "rorx", parity))))
            self.assertEqual(used - set(x86asm.SAVED),
                             {x86asm.STATE, x86asm.SCRATCH, x86asm.ODD})


if __name__ == "__main__":
    unittest.main()
