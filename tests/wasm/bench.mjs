// SPDX-License-Identifier: Apache-2.0 OR MIT
// roundsmith.mjs against hash-wasm, @noble/hashes and js-sha3 in one node process: a turn runs
// every candidate of every case in round-robin order, the turns repeat, and the median turn of
// each is reported, with the ratios the goals name (each the median of the ratios within a
// turn). Nothing here asserts a timing.
//   node tests/wasm/bench.mjs FOLDER PEERS_DIR [--turns N] [--candidates A.wasm,B.wasm]
// FOLDER holds roundsmith.mjs, roundsmith.wasm and roundsmith-simd128.wasm; PEERS_DIR a
// node_modules with the three peers (bench/peers/bench_wasm.sh installs them there).
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [folder, peers, ...rest] = process.argv.slice(2);
if (!folder || !peers) {
    console.error("usage: node tests/wasm/bench.mjs FOLDER PEERS_DIR [--turns N]");
    process.exit(2);
}
const opt = (name, dflt) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : dflt;
};
const TURNS = Number(opt("--turns", "15"));
const require = createRequire(path.join(path.resolve(peers), "node_modules", "x.js"));
const peerVersion = (name) => JSON.parse(readFileSync(path.join(path.resolve(peers), "node_modules", name, "package.json"))).version;
const hashwasm = await import(pathToFileURL(require.resolve("hash-wasm")));
const noble = await import(pathToFileURL(require.resolve("@noble/hashes/sha3.js")));
const nobleAddons = await import(pathToFileURL(require.resolve("@noble/hashes/sha3-addons.js")));
const jssha3 = require("js-sha3");
const { load } = await import(pathToFileURL(path.resolve(folder, "roundsmith.mjs")));
const scalar = await load(path.resolve(folder, "roundsmith.wasm"));
const simd = await load(path.resolve(folder, "roundsmith-simd128.wasm"));
const hwSha3 = await hashwasm.createSHA3(256);
const hwKeccak = await hashwasm.createKeccak(256);

const MiB = new Uint8Array(1 << 20).map((_, i) => (i * 131 + 7) & 255);
const small = MiB.subarray(0, 32);
const hex = (u) => Buffer.from(u).toString("hex");

// Per case: name -> function of the input; each is checked against the first before timing.
const cases = [
    ["SHA3-256, 1 MiB", MiB, 4, {
        "roundsmith simd128": (d) => simd.sha3_256(d),
        "roundsmith scalar": (d) => scalar.sha3_256(d),
        "hash-wasm": (d) => hwSha3.init().update(d).digest("binary"),
        "@noble/hashes": (d) => noble.sha3_256(d),
        "js-sha3": (d) => new Uint8Array(jssha3.sha3_256.arrayBuffer(d)),
    }],
    ["Keccak-256, 32 bytes", small, 20000, {
        "roundsmith simd128": (d) => simd.keccak256(d),
        "roundsmith scalar": (d) => scalar.keccak256(d),
        "hash-wasm": (d) => hwKeccak.init().update(d).digest("binary"),
        "@noble/hashes": (d) => noble.keccak_256(d),
        "js-sha3": (d) => new Uint8Array(jssha3.keccak256.arrayBuffer(d)),
    }],
    ["KT128, 1 MiB", MiB, 4, {
        "roundsmith simd128": (d) => simd.kt128(d, 32),
        "roundsmith scalar": (d) => scalar.kt128(d, 32),
        "@noble/hashes": (d) => nobleAddons.kt128(d, { dkLen: 32 }),
    }],
];

function median(xs) {
    const s = [...xs].sort((a, b) => a - b);
    return s[s.length >> 1];
}

// A VM may name its CPU "AMD EPYC" alone: the family and model say which one.
function cpuName() {
    let name = os.cpus()[0]?.model || "unknown CPU";
    try {
        const info = readFileSync("/proc/cpuinfo", "utf8");
        const f = /^cpu family\s*:\s*(\d+)/m.exec(info), m = /^model\s*:\s*(\d+)/m.exec(info);
        if (f && m)
            name += ` (family ${f[1]} model ${m[1]})`;
    } catch {
        // not Linux: the model name alone
    }
    return name;
}
const cpu = cpuName();
console.log(`node ${process.version} (V8 ${process.versions.v8}), ${cpu}, ${os.cpus().length} CPUs; ` +
            `peers: hash-wasm ${peerVersion("hash-wasm")}, @noble/hashes ${peerVersion("@noble/hashes")}, ` +
            `js-sha3 ${peerVersion("js-sha3")}; ${TURNS} turns round-robin, median turn`);
const results = {}, turnsOf = {};
for (const [title, input, , fns] of cases) {
    const names = Object.keys(fns);
    const want = hex(fns[names[0]](input));
    for (const n of names)
        if (hex(fns[n](input)) !== want)
            throw new Error(`${title}: ${n} disagrees with ${names[0]}`);
    turnsOf[title] = Object.fromEntries(names.map((n) => [n, []]));
}
// One turn runs every candidate of every case, so ratios across cases (KT128 against
// SHA3-256) are taken within a turn too.
for (let t = 0; t < TURNS; t++) {
    for (const [title, input, reps, fns] of cases) {
        for (const [n, f] of Object.entries(fns)) {
            const t0 = process.hrtime.bigint();
            for (let i = 0; i < reps; i++)
                f(input);
            turnsOf[title][n].push(Number(process.hrtime.bigint() - t0) / reps);
        }
    }
}
for (const [title, input, reps, fns] of cases) {
    const names = Object.keys(fns);
    results[title] = Object.fromEntries(names.map((n) => [n, median(turnsOf[title][n])]));
    console.log(`\n${title} (${input.length} bytes; ns per call, median of ${TURNS} turns of ${reps})`);
    const ours = results[title]["roundsmith simd128"];
    for (const n of names) {
        const ns = results[title][n];
        const per = input.length >= 4096 ? `  ${(input.length / ns * 1e3).toFixed(1)} MB/s` : "";
        console.log(`  ${n.padEnd(20)} ${ns.toFixed(0).padStart(12)} ns${per}  ours(simd128) is ${(ns / ours).toFixed(2)}x faster`);
    }
}
// A goal's ratio is the median over turns of the two candidates' times in the same turn: on
// a shared machine a turn slowed by a neighbour slows both.
const r = (c, a, b, c2 = c) => median(turnsOf[c2][b].map((t, i) => t / turnsOf[c][a][i]));
const SHA = "SHA3-256, 1 MiB", K = "Keccak-256, 32 bytes", KT = "KT128, 1 MiB", US = "roundsmith simd128";
console.log("\ngoals (median over turns of the ratio within a turn; above 1: roundsmith is faster):");
console.log(`  SHA3-256 1 MiB: ${r(SHA, US, "hash-wasm").toFixed(2)}x hash-wasm (goal 1.25), ` +
            `${r(SHA, US, "@noble/hashes").toFixed(1)}x @noble/hashes (goal 12), ` +
            `${r(SHA, US, "js-sha3").toFixed(1)}x js-sha3`);
console.log(`  Keccak-256 32 B: ${r(K, US, "hash-wasm").toFixed(2)}x hash-wasm (goal 1.25), ` +
            `${r(K, US, "@noble/hashes").toFixed(1)}x @noble/hashes (goal 12), ` +
            `${r(K, US, "js-sha3").toFixed(1)}x js-sha3`);
console.log(`  KT128 1 MiB on simd128: ${median(turnsOf[SHA][US].map((t, i) => t / turnsOf[KT][US][i])).toFixed(2)}x ` +
            `our SHA3-256 (goal 4); ${r(KT, US, "roundsmith scalar").toFixed(2)}x the scalar build's KT128, ` +
            `${r(KT, US, "@noble/hashes").toFixed(1)}x @noble/hashes' kt128`);
