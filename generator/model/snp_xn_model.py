# SPDX-License-Identifier: Apache-2.0 OR MIT
"""XKCP's parallel SnP (KeccakP-1600-timesN-SnP.h) as a Python model, byte by byte, and the
scripts of calls the Check harness (tests/check_snp_xN.c) replays against it: every function
with random instance indexes, offsets, lengths, lane counts and lane offsets, FastLoop_Absorb
on every shape, each step's expected output and the states' hash afterwards."""

import random

from . import reference, vectors

WIDTHS = (2, 4, 8)
# The harness's one input buffer: byte k of it (data_byte), enough for every FastLoop case.
DATA_LEN = 20000
# Output buffers are filled with this byte first, so the bytes a call must not touch are
# checked too.
FILL = 0xA5
# The lane offsets the *LanesAll steps draw from: a span of 8 (7 * 30 + 25) bytes keeps every
# expected string under C99's 4095 characters.
MAX_LANE_OFFSET = 30

KINDS = ("init", "add_byte", "add_bytes", "overwrite_bytes", "overwrite_with_zeroes",
         "add_lanes_all", "overwrite_lanes_all", "extract_bytes", "extract_and_add_bytes",
         "extract_lanes_all", "extract_and_add_lanes_all", "permute", "fast_loop")


def data_byte(k):
    return (k * 167 + (k >> 8) * 13 + 5) & 0xFF


DATA = bytes(data_byte(k) for k in range(DATA_LEN))


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class States:
    """N Keccak-p[1600] states, each as 200 bytes in the FIPS 202 order; the functions follow
    XKCP's PlSnP documentation (instance after instance for the *LanesAll ones) and the
    bundle's documented edges (offsets past 200 clipped, laneCount above 25 taken as 25)."""

    def __init__(self, n):
        self.n = n
        self.s = [bytearray(200) for _ in range(n)]

    def initialize_all(self):
        self.s = [bytearray(200) for _ in range(self.n)]

    @staticmethod
    def _clip(offset, length):
        return 0 if offset >= 200 else min(length, 200 - offset)

    def add_byte(self, j, byte, offset):
        if offset < 200:
            self.s[j][offset] ^= byte

    def add_bytes(self, j, data, offset, length):
        for k in range(self._clip(offset, length)):
            self.s[j][offset + k] ^= data[k]

    def overwrite_bytes(self, j, data, offset, length):
        length = self._clip(offset, length)
        self.s[j][offset:offset + length] = data[:length]

    def overwrite_with_zeroes(self, j, count):
        count = self._clip(0, count)
        self.s[j][:count] = bytes(count)

    def extract_bytes(self, j, offset, length):
        return bytes(self.s[j][offset:offset + self._clip(offset, length)])

    def extract_and_add_bytes(self, j, data, offset, length):
        return bytes(a ^ b for a, b in zip(self.extract_bytes(j, offset, length), data))

    def add_lanes_all(self, data, lanes, lane_offset, overwrite=False):
        lanes = min(lanes, 25)
        for j in range(self.n):
            block = data[8 * j * lane_offset:8 * j * lane_offset + 8 * lanes]
            if overwrite:
                self.s[j][:8 * lanes] = block
            else:
                self.add_bytes(j, block, 0, 8 * lanes)

    def extract_lanes_all(self, out, lanes, lane_offset, add=None):
        """Into the bytearray `out` (whose unwritten bytes stay), instance after instance."""
        lanes = min(lanes, 25)
        for j in range(self.n):
            at = 8 * j * lane_offset
            block = self.s[j][:8 * lanes]
            if add is not None:
                block = bytes(a ^ b for a, b in zip(block, add[at:at + 8 * lanes]))
            out[at:at + 8 * lanes] = block

    def permute(self, rounds):
        for j in range(self.n):
            self.s[j][:] = reference.state_to_bytes(
                reference.keccak_p1600(reference.state_from_bytes(bytes(self.s[j])), rounds))

    def fast_loop(self, rounds, lanes, lop, los, data, length):
        """XKCP's FastLoop_Absorb; returns the bytes `data` advanced."""
        need, step, done = 8 * ((self.n - 1) * lop + lanes), 8 * los, 0
        if step == 0:
            return 0
        while length - done >= need:
            self.add_lanes_all(data[done:], lanes, lop)
            self.permute(rounds)
            if length - done < step:  # where XKCP's count would wrap: stop
                return done + step
            done += step
        return done

    def dump(self):
        return b"".join(bytes(s) for s in self.s)


def script(n):
    """One deterministic script of calls for N states: [{kind, inst, p: [5 ints], expected
    (hex, or ""), ret, hash}], each step's hash the FNV-1a of the states (instance after
    instance, 200 bytes each) after it."""
    rng = random.Random(vectors.SEED ^ n)
    st = States(n)
    steps = []

    def step(kind, inst=0, p=(), expected=b"", ret=0):
        p = list(p) + [0] * (5 - len(p))
        steps.append(dict(kind=kind, inst=inst, p=p, expected=expected.hex(), ret=ret,
                          hash=fnv1a64(st.dump())))

    def offset_length():
        offset = rng.choice([0, rng.randrange(200), rng.randrange(8) * 8, 199, 200, 250])
        length = rng.choice([0, rng.randrange(201), rng.randrange(1, 9), 200 - min(offset, 200),
                             300])
        return offset, length

    def lanes():
        count = rng.choice([0, 1, rng.randrange(26), 16, 17, 21, 25])
        lane_offset = rng.choice([count, rng.randrange(MAX_LANE_OFFSET + 1), count + 1,
                                  max(count - 1, 0), MAX_LANE_OFFSET])
        return count, min(lane_offset, MAX_LANE_OFFSET)

    st.initialize_all()
    step("init")
    for _ in range(12):  # a full state first, so every later byte differs from zero
        j, data = rng.randrange(n), rng.randrange(DATA_LEN - 200)
        st.add_bytes(j, DATA[data:], 0, 200)
        step("add_bytes", j, (data, 0, 200))
    st.permute(24)
    step("permute", 0, (24,))
    for i in range(160):
        kind = rng.choice(KINDS[1:] + ("extract_bytes", "extract_and_add_bytes", "fast_loop"))
        j = rng.randrange(n)
        data = rng.randrange(DATA_LEN - 2500)
        if kind == "add_byte":
            byte, offset = rng.randrange(256), rng.choice([rng.randrange(200), 0, 199])
            st.add_byte(j, byte, offset)
            step(kind, j, (byte, offset))
        elif kind in ("add_bytes", "overwrite_bytes"):
            offset, length = offset_length()
            getattr(st, kind)(j, DATA[data:], offset, length)
            step(kind, j, (data, offset, length))
        elif kind == "overwrite_with_zeroes":
            count = rng.choice([0, rng.randrange(201), 8 * rng.randrange(26), 200, 300])
            st.overwrite_with_zeroes(j, count)
            step(kind, j, (count,))
        elif kind in ("add_lanes_all", "overwrite_lanes_all"):
            count, lane_offset = lanes()
            st.add_lanes_all(DATA[data:], count, lane_offset, kind == "overwrite_lanes_all")
            step(kind, 0, (data, count, lane_offset))
        elif kind == "extract_bytes":
            offset, length = offset_length()
            step(kind, j, (0, offset, length), st.extract_bytes(j, offset, length))
        elif kind == "extract_and_add_bytes":
            offset, length = offset_length()
            step(kind, j, (data, offset, length),
                 st.extract_and_add_bytes(j, DATA[data:], offset, length))
        elif kind in ("extract_lanes_all", "extract_and_add_lanes_all"):
            count, lane_offset = lanes()
            span = 8 * ((n - 1) * lane_offset + count) if count else 0
            out = bytearray([FILL] * span)
            st.extract_lanes_all(out, count, lane_offset,
                                 DATA[data:] if kind == "extract_and_add_lanes_all" else None)
            step(kind, 0, (data, count, lane_offset), bytes(out))
        elif kind == "permute":
            rounds = rng.choice([4, 6, 12, 24])
            st.permute(rounds)
            step(kind, 0, (rounds,))
        else:
            rounds = rng.choice([12, 24])
            count = rng.choice([21, 17, 1, 25, rng.randrange(1, 26), 0])
            lop = rng.choice([count, rng.randrange(60), 1024 // n, 0])
            shape = rng.choice(["serial", "serial", "other", "zero", "wrap"])
            los = {"serial": count, "other": rng.randrange(1, 40), "zero": 0,
                   "wrap": (n - 1) * lop + count + rng.randrange(1, 9)}[shape]
            need, stride = 8 * ((n - 1) * lop + count), 8 * max(los, 1)
            length = need + rng.randrange(4) * stride + rng.choice([0, rng.randrange(stride)])
            if rng.randrange(6) == 0:
                length = rng.randrange(need + 1)  # too short for one block
            data = rng.randrange(DATA_LEN - length + 1)
            ret = st.fast_loop(rounds, count, lop, los, DATA[data:], length)
            step(kind, rounds, (data, count, lop, los, length), ret=ret)  # inst: rounds
    return steps


def scripts():
    return {n: script(n) for n in WIDTHS}
