# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The sponge functions on Keccak-p[1600] as data: rates, domain bytes and round counts, each
derived from its definition (FIPS 202, the Keccak submission, RFC 9861)."""

from dataclasses import dataclass

from . import keccak_maths as keccak

STATE_BYTES = keccak.LANES * keccak.WIDTH // 8
PAD_LAST = 0x80  # the final 1 of pad10*1, in the last byte of the block


def rate_for(security_bits):
    """Capacity is twice the security level; the rate is what is left of the state."""
    return STATE_BYTES - 2 * security_bits // 8


def domain_byte(suffix_bits):
    """The byte xored after the message: the domain suffix bits (first bit lowest), then the
    first 1 of pad10*1."""
    value = 0
    for i, bit in enumerate(suffix_bits):
        value |= int(bit) << i
    return value | 1 << len(suffix_bits)


@dataclass(frozen=True)
class SpongeFunction:
    name: str             # C name
    title: str            # the standard's name
    rate: int             # bytes per block
    rounds: int
    domain: int           # 0 when the caller passes it (TurboSHAKE)
    digest: int           # fixed output bytes; 0 for an extendable-output function
    standard: str

    @property
    def lanes(self):
        return self.rate // 8


def _sha3(bits):
    return SpongeFunction(f"sha3_{bits}", f"SHA3-{bits}", rate_for(bits), 24, domain_byte("01"),
                          bits // 8, "FIPS 202")


def _shake(bits):
    return SpongeFunction(f"shake{bits}", f"SHAKE{bits}", rate_for(bits), 24,
                          domain_byte("1111"), 0, "FIPS 202")


def _turboshake(bits):
    return SpongeFunction(f"turboshake{bits}", f"TurboSHAKE{bits}", rate_for(bits), 12, 0, 0,
                          "RFC 9861")


HASHES = tuple(_sha3(b) for b in (224, 256, 384, 512)) + (
    SpongeFunction("keccak256", "Keccak-256", rate_for(256), 24, domain_byte(""), 32,
                   "the Keccak submission (Ethereum's Keccak-256)"),)
XOFS = tuple(_shake(b) for b in (128, 256))
TURBOSHAKES = tuple(_turboshake(b) for b in (128, 256))

# The multi-buffer widths. Every bundle declares all of them so that code written
# against one bundle builds against any other; what runs each is the path's business.
MULTI_BUFFER_WIDTHS = (2, 4, 8)

def mb_kernel_order(n, kernels, costs):
    """The multi-state kernels to try for N = n lanes, best first, each given as (index, width,
    isa); the caller takes the first the CPU runs, else n single-state sponges. `costs` maps
    (width, isa) to one permutation per instance relative to the single-state kernel (1), as
    measured (generator/cpu_table.py). A kernel wider than n runs the spare instances as copies
    of lane 0. Kernels without a figure are used only where their width divides n, widest
    first. (A bundle orders its kernels per CPU at run time instead.)"""
    def cost(k):
        c = costs.get((k[1], k[2]))
        return None if c is None else -(-n // k[1]) * k[1] * c
    measured = sorted((k for k in kernels if cost(k) is not None and cost(k) < n), key=cost)
    others = [k for k in kernels if cost(k) is None and n % k[1] == 0]
    return [k[0] for k in measured + others]


class _SecurityLevel:
    """The rate of a security level's capacity, and the leaf outputs (chaining values) of
    twice its bits that its tree hashes use."""

    @property
    def rate(self):
        return rate_for(self.security)

    @property
    def cv(self):
        return 2 * self.security // 8


@dataclass(frozen=True)
class KangarooTwelve(_SecurityLevel):
    """KT128 and KT256 (RFC 9861): a tree of TurboSHAKE calls over 8192-byte chunks."""
    name: str = "kt128"
    title: str = "KT128"
    security: int = 128
    chunk: int = 8192
    leaf_domain: int = 0x0B
    single_domain: int = 0x07     # the whole input fits the first chunk
    final_domain: int = 0x06
    first_chunk_marker: bytes = bytes([0x03]) + bytes(7)
    final_trailer: bytes = b"\xff\xff"
    rounds: int = 12
    batch: int = 8                # whole leaves taken from the input at a time

    @property
    def leaf_blocks(self):
        """Whole rate-sized blocks in a leaf; the rest is the tail padded with the domain."""
        return self.chunk // self.rate

    @property
    def leaf_tail_lanes(self):
        tail = self.chunk % self.rate
        assert tail % 8 == 0, "the multi-leaf loop moves whole lanes"
        return tail // 8


KT128 = KangarooTwelve()
KT256 = KangarooTwelve("kt256", "KT256", 256)
KANGAROOS = (KT128, KT256)


# NIST SP 800-185: cSHAKE and the three functions on it, by security level.
CSHAKE_DOMAIN = domain_byte("00")
SP800185_NAMES = {"kmac": b"KMAC", "tuplehash": b"TupleHash", "parallelhash": b"ParallelHash"}
# The largest encoding the C side writes: a 64-bit byte count as bits needs 67 bits, nine
# bytes, and left_encode/right_encode add the count byte.
ENCODE_MAX = 10


@dataclass(frozen=True)
class Sp800185(_SecurityLevel):
    """cSHAKE, KMAC, TupleHash and ParallelHash at one security level (128 or 256);
    ParallelHash's blocks go through SHAKE to `cv` bytes."""
    security: int
    rounds: int = 24
    leaf_domain: int = domain_byte("1111")
    batch: int = 8                           # whole blocks taken from the input at a time

    @property
    def names(self):
        return {k: list(v) for k, v in SP800185_NAMES.items()}


SP800185 = (Sp800185(128), Sp800185(256))
