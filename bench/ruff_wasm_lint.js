// Peer for bench/static_bench.py: Ruff's flake8-bandit (S) rules through @astral-sh/ruff-wasm-nodejs.
// Usage: node ruff_wasm_lint.js FILELIST THREADS   -> prints "bytes seconds diagnostics"
//        node ruff_wasm_lint.js FILELIST codes     -> one JSON line per file: {"file", "codes": [...]}
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');

if (isMainThread && process.argv[3] === 'codes') {
  const ruff = require('@astral-sh/ruff-wasm-nodejs');
  const ws = new ruff.Workspace({ lint: { select: ['S'] } }, ruff.PositionEncoding.Utf16);
  const files = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
  for (const f of files) {
    let codes;
    try {
      codes = ws.check(fs.readFileSync(f, 'utf8')).map((d) => d.code).filter(Boolean);
    } catch (e) {
      codes = ['error'];
    }
    console.log(JSON.stringify({ file: f, codes }));
  }
} else if (isMainThread) {
  const files = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
  const threads = Math.max(1, parseInt(process.argv[3] || '1', 10));
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  const bytes = files.reduce((a, f) => a + fs.statSync(f).size, 0);
  const shards = Array.from({ length: threads }, (_, i) => texts.filter((_, k) => k % threads === i));
  let done = 0, diags = 0, t0 = 0, ready = 0;
  const workers = shards.map((shard) => new Worker(__filename, { workerData: shard }));
  for (const w of workers) {
    w.on('message', (m) => {
      if (m.ready) { if (++ready === workers.length) { t0 = process.hrtime.bigint(); workers.forEach((x) => x.postMessage('go')); } return; }
      diags += m.diags;
      if (++done === workers.length) {
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        console.log(`${bytes} ${s.toFixed(6)} ${diags}`);
        process.exit(0);
      }
    });
    w.on('error', (e) => { console.error(e); process.exit(3); });
  }
} else {
  const ruff = require('@astral-sh/ruff-wasm-nodejs');
  const ws = new ruff.Workspace({ lint: { select: ['S'] } }, ruff.PositionEncoding.Utf16);
  parentPort.postMessage({ ready: true });
  parentPort.once('message', () => {
    let diags = 0;
    for (const text of workerData) diags += ws.check(text).length;
    parentPort.postMessage({ diags });
  });
}
