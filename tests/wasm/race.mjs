// SPDX-License-Identifier: Apache-2.0 OR MIT
// Candidate builds of the folder's exports raced round-robin in one node process, each timed
// on the module's own memory (no copies from JavaScript): SHA3-256 of 64 KiB (the block loop;
// ns per block), Keccak-256 of 32 bytes (one permutation and the call), KT128 of 64 KiB (eight
// leaves; ns per KiB) and the ChaCha20 keystream of 64 KiB (ns per block), and keccak_p1600_x2
// (24 rounds, two states) where a build exports it. Per figure, the median of the turns and
// their spread (3rd quartile / 1st quartile - 1, as generator/decide.py reads it).
//   node tests/wasm/race.mjs [--turns N] [--tsv | --json] [--expect FILE.json] NAME=FILE.wasm ...
// Every candidate is checked before it is timed: without --expect, against the first (a
// disagreement ends the race); with --expect, against the known-good values in FILE (what
// generator/wasm_tune.py computes from hashlib and generator/reference.py over the same
// inputs), and a candidate that gets one wrong is reported as such and not timed. --json
// prints one JSON object per candidate (its check values, and per figure <id>_median,
// <id>_spread, <id>_best), after a first line naming the engine.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
let turns = 11, format = "table", expect = null;
const cands = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === "--turns")
        turns = Number(args[++i]);
    else if (args[i] === "--tsv")
        format = "tsv";
    else if (args[i] === "--json")
        format = "json";
    else if (args[i] === "--expect")
        expect = JSON.parse(readFileSync(args[++i], "utf8"));
    else {
        const eq = args[i].indexOf("=");
        cands.push(eq > 0 ? [args[i].slice(0, eq), args[i].slice(eq + 1)] : [args[i], args[i]]);
    }
}

function stubs(module) {
    const out = {};
    for (const imp of WebAssembly.Module.imports(module)) {
        out[imp.module] ??= {};
        out[imp.module][imp.name] = imp.name === "environ_sizes_get" || imp.name === "environ_get" ? () => 0 : () => 52;
    }
    return out;
}

// The inputs, byte i of each: generator/wasm_tune.py's known-good values assume these.
const LEN = 64 * 1024;
const WARMUP = 3;
const fill = (e, at, n, mul, add) => new Uint8Array(e.memory.buffer, at, n).forEach((_, i, a) => { a[i] = (i * mul + add) & 255; });
const hex = (e, at, n) => Buffer.from(new Uint8Array(e.memory.buffer, at, n)).toString("hex");
const runs = [];
for (const [name, file] of cands) {
    const module = new WebAssembly.Module(readFileSync(file));
    const e = new WebAssembly.Instance(module, stubs(module)).exports;
    e._initialize?.();
    const inp = e.roundsmith_alloc(LEN), out = e.roundsmith_alloc(64);
    const key = e.roundsmith_alloc(64), ks = e.roundsmith_alloc(LEN);
    fill(e, inp, LEN, 131, 7);
    fill(e, key, 64, 17, 1);
    const has = (f) => typeof e[f] === "function";
    const check = {};
    if (has("sha3_256")) {
        e.sha3_256(out, inp, LEN);
        check.sha3_256 = hex(e, out, 32);
        e.keccak256(out, inp, 32);
        check.keccak256 = hex(e, out, 32);
        e.kt128(out, 32, inp, LEN, 0, 0);
        check.kt128 = hex(e, out, 32);
    }
    if (has("keccak_p1600_x2")) {
        fill(e, ks, 400, 29, 3);
        e.keccak_p1600_x2(ks, 24);
        check.keccak_p1600_x2 = hex(e, ks, 400);
    }
    if (has("chacha20_keystream")) {
        e.chacha20_keystream(ks, key, 256, key + 32, 5n, LEN / 64);
        check.chacha20_keystream = createHash("sha256").update(new Uint8Array(e.memory.buffer, ks, LEN)).digest("hex");
    }
    const jobs = [];
    if (has("sha3_256"))
        jobs.push(["sha3", "sha3_256 ns/block", () => e.sha3_256(out, inp, LEN), 8, Math.ceil((LEN + 1) / 136)],
                  ["keccak256", "keccak256(32) ns", () => e.keccak256(out, inp, 32), 20000, 1],
                  ["kt128", "kt128 ns/KiB", () => e.kt128(out, 32, inp, LEN, 0, 0), 8, LEN / 1024]);
    if (has("keccak_p1600_x2"))
        jobs.push(["x2", "keccak_p1600_x2(24) ns", () => e.keccak_p1600_x2(ks, 24), 20000, 1]);
    if (has("chacha20_keystream"))
        jobs.push(["chacha", "chacha20 ns/block", () => e.chacha20_keystream(ks, key, 256, key + 32, 5n, LEN / 64), 8, LEN / 64]);
    let wrong = "";
    if (expect)
        wrong = Object.keys(check).filter((f) => f in expect && check[f] !== expect[f]).join(", ");
    runs.push({ name, check, jobs, wrong, times: jobs.map(() => []) });
}
if (!expect)
    for (const r of runs)
        if (JSON.stringify(r.check) !== JSON.stringify(runs[0].check))
            throw new Error(`${r.name} disagrees with ${runs[0].name}`);
const timed = runs.filter((r) => !r.wrong);
// V8 first runs a module's code from its baseline compiler (Liftoff) and tiers hot functions
// up to TurboFan while they run: untimed turns first, or the first turns time the baseline
// code and the spread measures the tier-up instead of the machine.
for (let t = -WARMUP; t < turns; t++) {
    for (const r of timed) {
        r.jobs.forEach(([, , f, reps, per], j) => {
            const t0 = process.hrtime.bigint();
            for (let i = 0; i < reps; i++)
                f();
            if (t >= 0)
                r.times[j].push(Number(process.hrtime.bigint() - t0) / reps / per);
        });
    }
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const med = (xs) => sorted(xs)[xs.length >> 1];
// The quartiles as bench/timing.h takes them (sorted turns at n*3/4 and n/4), so the native
// and the wasm tuner apply one rule to one kind of figure.
const spread = (xs) => { const s = sorted(xs); return s[(s.length * 3) >> 2] / s[s.length >> 2] - 1; };
const engine = `node ${process.version} (V8 ${process.versions.v8})`;
if (format === "json") {
    console.log(JSON.stringify({ engine: "node", engine_version: process.version.replace(/^v/, ""), v8: process.versions.v8, turns }));
    for (const r of runs) {
        const row = { variant: r.name, status: r.wrong ? `wrong: ${r.wrong}` : "ok", check: r.check };
        if (!r.wrong)
            r.jobs.forEach(([id], j) => {
                row[`${id}_median`] = med(r.times[j]);
                row[`${id}_spread`] = spread(r.times[j]);
                row[`${id}_best`] = Math.min(...r.times[j]);
            });
        console.log(JSON.stringify(row));
    }
    process.exit(0);
}
for (const r of runs.filter((r) => r.wrong))
    console.error(`${r.name}: wrong ${r.wrong}: not timed`);
if (!timed.length)
    process.exit(1);
const heads = timed[0].jobs.map(([, h]) => h);
const best = Math.min(...timed.map((r) => med(r.times[0])));
console.log(format === "tsv" ? ["candidate", ...heads.flatMap((h) => [h, `${h} spread`])].join("\t")
                             : `${engine}; ${turns} turns round-robin, median (spread: 3rd quartile / 1st - 1); sorted by ${heads[0]}`);
if (format !== "tsv")
    console.log(`  ${"candidate".padEnd(52)} ${heads.map((h) => h.padStart(26)).join(" ")}  vs best`);
for (const r of timed.sort((a, b) => med(a.times[0]) - med(b.times[0]))) {
    if (format === "tsv")
        console.log([r.name, ...r.times.flatMap((t) => [med(t).toFixed(1), spread(t).toFixed(4)])].join("\t"));
    else
        console.log(`  ${r.name.padEnd(52)} ${r.times.map((t) => `${med(t).toFixed(1)} ±${(100 * spread(t)).toFixed(1)}%`.padStart(26)).join(" ")}  ${(med(r.times[0]) / best).toFixed(3)}x`);
}
