// SPDX-License-Identifier: Apache-2.0 OR MIT
// roundsmith.mjs under node against vectors computed by hashlib and generator/reference.py
// (tests/e2e_wasm.py writes them), on each build given, and its refusals: wrong types, bad
// lengths, detached buffers, memory growth between calls. TAP output, one line per group.
//   node tests/wasm/test_mjs.mjs FOLDER VECTORS.json NAME=FILE.wasm ...
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [folder, vectorsFile, ...builds] = process.argv.slice(2);
const { load, simd128Supported } = await import(pathToFileURL(path.resolve(folder, "roundsmith.mjs")));
const V = JSON.parse(readFileSync(vectorsFile, "utf8"));
const hex = (u) => Buffer.from(u).toString("hex");
const bytes = (h) => new Uint8Array(Buffer.from(h, "hex"));
const message = (n) => new Uint8Array(n).map((_, i) => (i * 7 + (i >> 8)) & 255);

let n = 0, bad = 0;
function group(what, fn) {
    const errors = [];
    let checks = 0;
    const check = (cond, detail) => {
        checks++;
        if (!cond)
            errors.push(detail);
    };
    try {
        fn(check);
    } catch (e) {
        errors.push(`threw ${e && e.stack || e}`);
    }
    n++;
    if (errors.length)
        bad++;
    for (const e of errors.slice(0, 5))
        console.log(`# ${what}: ${e}`);
    console.log(`${errors.length ? "not ok" : "ok"} ${n} - ${what}: ${checks} checks`);
}

function throws(check, Kind, fn, what) {
    try {
        fn();
        check(false, `${what}: no exception`);
    } catch (e) {
        check(e instanceof Kind && /^roundsmith: /.test(e.message), `${what}: ${e}`);
    }
}

function detached(n) {
    const buf = new ArrayBuffer(n), view = new Uint8Array(buf);
    structuredClone(buf, { transfer: [buf] });
    return view;
}

for (const spec of builds) {
    const [name, file] = spec.split("=");
    const rs = await load(file);
    const tag = `${name} (path ${rs.path})`;
    group(`${tag}: self-test`, (check) => check(rs.selftest() === 0, `rs_selftest ${rs.selftest()} ${rs.selftestName(rs.selftest())}`));
    group(`${tag}: one-shot functions against the vectors`, (check) => {
        for (const c of V.cases) {
            const m = message(c.length), custom = message(c.custom || 0);
            const got = c.fn === "kt128" ? rs.kt128(m, c.outlen, custom)
                : c.fn.startsWith("turboshake") ? rs[c.fn](m, c.outlen, c.domain)
                : c.outlen ? rs[c.fn](m, c.outlen) : rs[c.fn](m);
            check(hex(got) === c.expected, `${c.fn}(${c.length} bytes, ${c.outlen}) = ${hex(got).slice(0, 32)}...`);
        }
    });
    group(`${tag}: incremental, in uneven pieces`, (check) => {
        for (const c of V.cases) {
            const m = message(c.length);
            const pieces = [0, 1, 7, 136, 8191, 70001].filter((p) => p < c.length);
            const feed = (h) => {
                let at = 0;
                for (const p of pieces.concat([c.length])) {
                    h.update(m.subarray(at, Math.max(at, p)));
                    at = Math.max(at, p);
                }
                return h;
            };
            let got;
            if (c.fn === "kt128")
                got = feed(rs.createKT128()).final(c.outlen, message(c.custom || 0));
            else if (c.outlen) {
                const x = feed(c.fn.startsWith("turboshake") ? rs.createXof(c.fn, c.domain) : rs.createXof(c.fn));
                const a = x.read(Math.min(c.outlen, 5)), b = x.read(c.outlen - a.length);
                got = new Uint8Array([...a, ...b]);
                x.free();
            } else
                got = feed(rs.createHash(c.fn)).digest();
            check(hex(got) === c.expected, `incremental ${c.fn}(${c.length}, ${c.outlen})`);
        }
    });
    group(`${tag}: ChaCha keystream and xor against the reference`, (check) => {
        for (const c of V.chacha) {
            const key = bytes(c.key), iv = bytes(c.iv);
            if (c.kind === "keystream") {
                const got = rs.chachaKeystream(c.rounds, key, iv, c.length, BigInt(c.position));
                check(hex(got) === c.expected, `chacha${c.rounds} keystream at ${c.position}, ${c.length} bytes`);
            } else if (c.kind === "xor") {
                const got = rs.chacha20Xor(message(c.length), key, iv, BigInt(c.position));
                check(hex(got) === c.expected, `chacha20Xor ${c.length} at ${c.position}`);
            } else {
                const got = rs.chacha20IetfXor(message(c.length), key, iv, c.position);
                check(hex(got) === c.expected, `chacha20IetfXor ${c.length} at ${c.position}`);
            }
        }
    });
    group(`${tag}: refusals are exceptions`, (check) => {
        throws(check, TypeError, () => rs.sha3_256("abc"), "a string");
        throws(check, TypeError, () => rs.sha3_256([1, 2, 3]), "an array");
        throws(check, TypeError, () => rs.sha3_256(new Uint16Array(4)), "a Uint16Array");
        throws(check, TypeError, () => rs.sha3_256(detached(64)), "a detached buffer");
        throws(check, TypeError, () => rs.keccak256(detached(0)), "a detached empty buffer");
        throws(check, TypeError, () => rs.kt128(new Uint8Array(3), 32, detached(8)), "a detached customization");
        throws(check, TypeError, () => rs.createHash("sha3_256").update(detached(8)), "update with a detached buffer");
        throws(check, RangeError, () => rs.shake128(new Uint8Array(1), -1), "a negative length");
        throws(check, RangeError, () => rs.shake128(new Uint8Array(1), 1.5), "a fractional length");
        throws(check, RangeError, () => rs.shake256(new Uint8Array(1), 2 ** 53), "a length past 2^53");
        throws(check, RangeError, () => rs.turboshake128(new Uint8Array(1), 32, 0), "domain 0");
        throws(check, RangeError, () => rs.turboshake128(new Uint8Array(1), 32, 0x80), "domain 0x80");
        throws(check, RangeError, () => rs.chachaKeystream(7, new Uint8Array(32), new Uint8Array(8), 64), "7 rounds");
        throws(check, RangeError, () => rs.chachaKeystream(20, new Uint8Array(31), new Uint8Array(8), 64), "a 31-byte key");
        throws(check, RangeError, () => rs.chachaKeystream(20, new Uint8Array(32), new Uint8Array(8), 64, 1n << 64n), "a position of 2^64");
        throws(check, RangeError, () => rs.chacha20IetfXor(new Uint8Array(1), new Uint8Array(32), new Uint8Array(12), 2 ** 32), "an IETF counter of 2^32");
        throws(check, TypeError, () => rs.createHash("md5"), "an unknown hash");
        const h = rs.createHash("sha3_256");
        h.digest();
        throws(check, Error, () => h.update(new Uint8Array(1)), "update after digest");
        const x = rs.createXof("shake128");
        x.read(1);
        throws(check, Error, () => x.update(new Uint8Array(1)), "absorb after squeeze");
        // A length the engine itself refuses to allocate is its RangeError, not a result.
        let refused = false;
        try {
            rs.shake128(new Uint8Array(1), 2 ** 52);
        } catch (e) {
            refused = e instanceof RangeError;
        }
        check(refused, "shake128 of 2^52 bytes of output did not fail with a RangeError");
    });
    group(`${tag}: results stay right after the module's memory grows`, (check) => {
        const before = rs.e.memory.buffer.byteLength;
        const xs = [];
        for (let i = 0; i < 4; i++)
            xs.push(rs.kt128(message(1000), 32, message(4 << 20)));
        check(rs.e.memory.buffer.byteLength > before, "memory did not grow");
        const c = V.cases.find((c) => c.fn === "sha3_256" && c.length > 65536);
        check(hex(rs.sha3_256(message(c.length))) === c.expected, "sha3_256 after growth");
        check(new Set(xs.map(hex)).size === 1, "kt128 with a 4 MiB customization is not stable");
    });
}
const dflt = await load();
group("load() with no source takes the build beside roundsmith.mjs the engine runs", (check) =>
    check(dflt.path === (simd128Supported() ? "simd128" : "scalar"), `took ${dflt.path}`));
console.log(`# simd128Supported: ${simd128Supported()}`);
console.log(`1..${n}`);
process.exitCode = bad ? 1 : 0;
