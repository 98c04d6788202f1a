#!/usr/bin/env python3
"""Static-gate benchmark: snipgate vs its peers, measured in the same run (ratios, not absolutes).

Corpus: the machine's CPython standard library (every .py under /usr/lib/python3.11 outside
site-/dist-packages). Peers: Bandit (Debian's package), Ruff's flake8-bandit S rules through
@astral-sh/ruff-wasm-nodejs (2 worker threads), and tree-sitter-python parse-only (the floor).
Also: one 200-byte snippet through the CLI (hyperfine) and through the C API; and start-up:
`snipgate check FILE` of a 4-line file and of a file that every query rule matches, beside
/bin/true in the same hyperfine run (--startup-only: that alone, a few seconds).

Usage: python3 bench/static_bench.py [--build build] [--repeat 3] [--baseline-build DIR] [--startup-only]
--baseline-build: also run another build's `snipgate check -j 1` (e.g. a Release build of an older
commit) against this one, interleaved A/B/A/B so that load drift hits both alike, and print the
change in CPU time (user + sys) per pair: a rule change's cost, as issue budgets state it. For a
count that does not depend on the machine's load at all, see callgrind in bench/README.md.
Peers are installed by: SNIPGATE_BENCH=1 bash scripts/setup.sh
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUFF_VERSION = "0.17.4"
SNIPPET = (
    "import os\nfrom typing import List\n\n"
    "def top_k(xs: List[int], k: int) -> List[int]:\n"
    '    """Return the k largest values, largest first."""\n'
    "    if k <= 0:\n        return []\n    return sorted(xs, reverse=True)[:k]\n"
)
# Start-up: a file no query rule can match (their prefilters exclude it: none is compiled), and one
# that each query rule of the default pack matches (SG108, SG212, SG213: each compiled once).
STARTUP_SMALL = "import os\ndef f(x):\n    return x + 1\nprint(f(2))\n"
STARTUP_QUERIES = (
    "import logging.config\n"
    'logging.config.dictConfig({"version": 1, "handlers": {"h": {"()": "os.system", "command": "id"}}})\n'
    "async def main(loop):\n"
    '    await loop.subprocess_shell(None, "id")\n'
    "def remote(client):\n"
    '    client.exec_command("id")\n'
)


def startup(builds, runs=50):
    """Median wall time of `snipgate check FILE` per build (name -> directory) for the two start-up
    files, with /bin/true in the same hyperfine run as the yardstick; prints ms and x /bin/true."""
    if not shutil.which("hyperfine"):
        print("start-up: hyperfine not installed, skipped")
        return {}
    tmp = tempfile.mkdtemp(prefix="sgstart.")
    files = {"4-line file": STARTUP_SMALL, "every query rule": STARTUP_QUERIES}
    cmds, labels = ["/bin/true"], ["/bin/true"]
    for what, text in files.items():
        path = os.path.join(tmp, what.split()[0] + ".py")
        with open(path, "w") as f:
            f.write(text)
        for name, d in builds.items():
            cmds.append(f"{os.path.join(d, 'snipgate')} check {path}")
            labels.append(f"{name}: check {what}")
        if shutil.which("bandit"):
            cmds.append(f"bandit -q {path}")
            labels.append(f"bandit: {what}")
    out = os.path.join(tmp, "h.json")
    subprocess.run(["hyperfine", "-N", "-i", "--warmup", "5", "--runs", str(runs), "--export-json", out, *cmds],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    res = [r["median"] * 1e3 for r in json.load(open(out))["results"]]
    print(f"start-up (hyperfine -N, {runs} runs, medians, one run; load average {os.getloadavg()[0]:.1f}):")
    for label, ms in zip(labels, res):
        print(f"  {label:42} {ms:8.2f} ms  {ms / res[0]:6.1f}x /bin/true")
    shutil.rmtree(tmp, ignore_errors=True)
    return dict(zip(labels, res))


def corpus():
    files = []
    for d, dirs, names in os.walk("/usr/lib/python3.11"):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "dist-packages", "__pycache__"))
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
    return files


def timed(cmd, repeat, env=None, parse=None):
    """Median wall seconds of `cmd` over `repeat` runs (or the tool's own number via parse)."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        dt = time.perf_counter() - t0
        if parse:
            dt = parse(p)
        runs.append(dt)
    return statistics.median(runs)


def vs_bandit(sg, files, mb, repeat):
    """snipgate check -j 2 (median of `repeat`) and Bandit (one process, once) over the same files."""
    print(f"standard library: {len(files)} files, {mb:.2f} MB (/usr/lib/python3.11); load {os.getloadavg()[0]:.1f}")
    t_sg = timed([sg, "check", "-j", "2", "--format", "json", "-o", os.devnull, *files], repeat)
    print(f"  snipgate check -j 2   {t_sg:8.2f} s  {mb / t_sg:8.2f} MB/s  (median of {repeat})")
    if not shutil.which("bandit"):
        print("  bandit not installed (SNIPGATE_BENCH=1 bash scripts/setup.sh): no ratio")
        return
    with tempfile.TemporaryDirectory() as tmp:
        t_b = timed(["bandit", "-q", "-f", "json", "-o", os.path.join(tmp, "b.json"), *files], 1)
    print(f"  bandit (1 process)    {t_b:8.2f} s  {mb / t_b:8.2f} MB/s")
    print(f"  snipgate / bandit throughput: {t_b / t_sg:.1f}x (target >= 15x)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline-build", help="a build directory whose snipgate is compared with this one")
    ap.add_argument("--startup-only", action="store_true", help="only the start-up measurement")
    ap.add_argument("--vs-bandit-only", action="store_true",
                    help="only `snipgate check -j 2` over the standard library beside Bandit (bench/regress.sh)")
    a = ap.parse_args()
    sg = os.path.join(a.build, "snipgate")
    builds = {"this build": a.build}
    if a.baseline_build:
        builds["baseline"] = a.baseline_build
    if a.startup_only:
        startup(builds)
        return
    files = corpus()
    mb = sum(os.path.getsize(f) for f in files) / 1e6
    if a.vs_bandit_only:
        vs_bandit(sg, files, mb, a.repeat)
        return
    tmp = tempfile.mkdtemp(prefix="sgbench.")
    listfile = os.path.join(tmp, "files.txt")
    with open(listfile, "w") as f:
        f.write("\n".join(files) + "\n")
    print(f"corpus: {len(files)} files, {mb:.2f} MB (/usr/lib/python3.11); {os.cpu_count()} cores; median of {a.repeat}")
    rows = {}

    def parse_own(p):  # "bytes seconds ..." printed by the tool itself (excludes start-up and reading)
        if p.returncode != 0:
            raise SystemExit(f"peer failed: {p.stderr[:500]}")
        return float(p.stdout.split()[1])

    with open(listfile) as lf:
        pass
    for threads in (1, 2):
        rows[f"tree-sitter parse only ({threads} thr)"] = timed(
            ["sh", "-c", f"{a.build}/bench/bench_parse {threads} < {listfile}"], a.repeat, parse=parse_own)
    for threads in (1, 2):
        rows[f"snipgate check ({threads} thr)"] = timed(
            [sg, "check", "-j", str(threads), "--format", "json", "-o", os.devnull, *files], a.repeat)

    if a.baseline_build:
        base = os.path.join(a.baseline_build, "snipgate")

        def cpu_run(cmd):  # CPU seconds (user + sys) of one run: less sensitive to a busy machine than wall
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            if p.returncode not in (0, 1):
                raise SystemExit(f"{cmd[0]} failed with {p.returncode}")
            return ru.ru_utime + ru.ru_stime

        cmd = lambda exe: [exe, "check", "-j", "1", "--format", "json", "-o", os.devnull, *files]
        tb, th = [], []
        for _ in range(max(a.repeat, 5)):  # interleaved: A B A B ...
            tb.append(cpu_run(cmd(base)))
            th.append(cpu_run(cmd(sg)))
        pairs = sorted(h / b for b, h in zip(tb, th))
        r = statistics.median(pairs)
        print(f"A/B, 1 thread, {len(tb)} interleaved pairs, CPU seconds: baseline {statistics.median(tb):.3f}, "
              f"this build {statistics.median(th):.3f}; ratio this/baseline median {r:.3f} "
              f"(pairs {pairs[0]:.3f}-{pairs[-1]:.3f}): throughput {100 * (1 / r - 1):+.1f}%")
    if shutil.which("bandit"):
        rows["bandit (1 proc)"] = timed(["bandit", "-q", "-f", "json", "-o", os.path.join(tmp, "b.json"), *files], 1)
    else:
        print("note: bandit not installed (SNIPGATE_BENCH=1 bash scripts/setup.sh)")
    peers = os.path.join(ROOT, "bench", ".peers")
    if shutil.which("npm") and not os.path.isdir(os.path.join(peers, "node_modules", "@astral-sh", "ruff-wasm-nodejs")):
        subprocess.run(["npm", "install", "--silent", "--prefix", peers, f"@astral-sh/ruff-wasm-nodejs@{RUFF_VERSION}"],
                       check=False, stdout=subprocess.DEVNULL)
    if os.path.isdir(os.path.join(peers, "node_modules")):
        env = dict(os.environ, NODE_PATH=os.path.join(peers, "node_modules"))
        rows["ruff-wasm S rules (2 thr)"] = timed(
            ["node", os.path.join(ROOT, "bench", "ruff_wasm_lint.js"), listfile, "2"], a.repeat, env=env,
            parse=parse_own)

    print(f"\n{'tool':36} {'seconds':>8} {'MB/s':>8}")
    for k, v in rows.items():
        print(f"{k:36} {v:8.3f} {mb / v:8.2f}")
    sg2 = rows["snipgate check (2 thr)"]
    print("\nratios (throughput, same run):")
    targets = []
    if "bandit (1 proc)" in rows:
        r = rows["bandit (1 proc)"] / sg2
        print(f"  snipgate(2 thr) / bandit            {r:6.1f}x   (target >= 15x)")
        targets.append(r >= 15)
    if "ruff-wasm S rules (2 thr)" in rows:
        r = rows["ruff-wasm S rules (2 thr)"] / sg2
        print(f"  snipgate(2 thr) / ruff-wasm(2 thr)  {r:6.1f}x   (target >= 2.5x)")
        targets.append(r >= 2.5)
    for t in (1, 2):
        r = rows[f"snipgate check ({t} thr)"] / rows[f"tree-sitter parse only ({t} thr)"]
        print(f"  snipgate time / parse-only time ({t} thr) {r:5.2f}   (target <= 1.3; includes process start and file reading)")
        if t == 2:
            targets.append(r <= 1.3)

    snip = os.path.join(tmp, "snippet.py")
    with open(snip, "w") as f:
        f.write(SNIPPET)
    print(f"\nsingle {len(SNIPPET)}-byte snippet:")
    if shutil.which("hyperfine"):
        out = os.path.join(tmp, "h.json")
        cmds = [f"{sg} check {snip}"]
        if shutil.which("bandit"):
            cmds.append(f"bandit -q {snip}")
        subprocess.run(["hyperfine", "-N", "--warmup", "5", "--runs", "40", "-i", "--export-json", out, *cmds],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        res = json.load(open(out))["results"]
        for r in res:
            print(f"  {r['command'].split()[0].split('/')[-1]:10} CLI median {r['median'] * 1e3:8.2f} ms")
        cli_ms = res[0]["median"] * 1e3
        if len(res) > 1:
            print(f"  bandit / snipgate CLI               {res[1]['median'] / res[0]['median']:6.1f}x")
    else:
        ts = []
        for _ in range(40):
            t0 = time.perf_counter()
            subprocess.run([sg, "check", snip], stdout=subprocess.DEVNULL)
            ts.append(time.perf_counter() - t0)
        cli_ms = statistics.median(ts) * 1e3
        print(f"  snipgate CLI median {cli_ms:.2f} ms (python subprocess timing)")
    print(f"  target: CLI < 5 ms: {'met' if cli_ms < 5 else 'MISSED'}")
    targets.append(cli_ms < 5)
    p = subprocess.run([os.path.join(a.build, "bench", "bench_api"), "20000"], stdout=subprocess.PIPE, text=True)
    print("  " + p.stdout.strip())
    api_us = float(p.stdout.split()[2])
    print(f"  target: C API < 100 us: {'met' if api_us < 100 else 'MISSED'}")
    targets.append(api_us < 100)
    shutil.rmtree(tmp, ignore_errors=True)
    print()
    su = startup(builds)
    if su:
        ms = su["this build: check 4-line file"]
        print(f"  target: a 4-line file < 5 ms: {'met' if ms < 5 else 'MISSED'}")
        targets.append(ms < 5)
    print(f"\ntargets met: {sum(targets)}/{len(targets)}")


if __name__ == "__main__":
    main()
