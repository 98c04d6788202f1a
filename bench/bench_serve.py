#!/usr/bin/env python3
"""`snipgate serve` on loopback: requests/s and latency percentiles, measured by bench_serve (a
small C load client, open loop at a fixed rate or closed loop), in one run:

  1. static-only checks of a 209-byte snippet at 1,000 requests/s (open loop; target: p99 < 5 ms);
  2. the same closed loop (16 connections): the most the server answers;
  3. checks with a golden task (sg/binary_search_leftmost, the correct solution, known answers and
     the default property budget), closed loop with 2 connections;
  4. the same golden request from one connection, one at a time (issue 24: p50 < 60 ms on an idle
     machine), beside the naive way measured in the same run: one fresh `python3 -I -S` process
     per case the request judged (its structured cases and generated inputs), run one after
     another (their median start-and-check time times the count).

Usage: python3 bench/bench_serve.py [--build build] [--seconds 10] [--jobs 2] [--json OUT]
"""
import argparse
import json
import os
import re
import signal
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SNIPPET = (
    "import os\nfrom typing import List\n\n"
    "def top_k(xs: List[int], k: int) -> List[int]:\n"
    '    """Return the k largest values, largest first."""\n'
    "    if k <= 0:\n        return []\n    return sorted(xs, reverse=True)[:k]\n"
)


def start(sg, args):
    err = tempfile.NamedTemporaryFile(prefix="sg_bench_serve_", suffix=".err", delete=False)
    p = subprocess.Popen([sg, "serve", "--listen", "127.0.0.1:0", *args], stdout=subprocess.DEVNULL, stderr=err)
    for _ in range(500):
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", open(err.name).read())
        if m:
            return p, int(m.group(1)), err.name
        time.sleep(0.01)
    raise SystemExit("serve did not start: " + open(err.name).read())


def load(client, port, body, conns, rate, secs):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(body, f)
    out = subprocess.run([client, "127.0.0.1", str(port), f.name, str(conns), str(rate), str(secs)],
                         capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)
    return json.loads(out)


def golden_cases(port, body):
    """Cases one golden request judges: structured cases plus generated inputs checked."""
    import urllib.request
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/check", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    g = json.loads(urllib.request.urlopen(req, timeout=60).read())["files"][0]["golden"]
    return g["cases_run"] + g["inputs_checked"]


def naive_case_ms(sol, runs=30):
    """Median time of one fresh interpreter that defines the solution and checks one case."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(sol + "\nassert binary_search([1, 2, 2, 2, 5], 2) == 1\n")
    t = []
    for _ in range(runs):
        a = time.perf_counter()
        subprocess.run(["/usr/bin/python3", "-I", "-S", f.name], check=True)
        t.append((time.perf_counter() - a) * 1e3)
    os.unlink(f.name)
    return sorted(t)[runs // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    a = ap.parse_args()
    sg = os.path.join(a.build, "snipgate")
    client = os.path.join(a.build, "bench", "bench_serve")
    sol = open(os.path.join(ROOT, "examples", "golden", "binary_search_ok.py")).read()
    print(f"snipgate serve -j {a.jobs}, loopback, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
          f"snippet {len(SNIPPET)} bytes", flush=True)
    res = {"jobs": a.jobs, "load_before": os.getloadavg()[0]}
    p, port, errf = start(sg, ["-j", str(a.jobs), "--queue", "1024"])
    try:
        load(client, port, {"code": SNIPPET}, 16, 0, 1)  # warm-up
        r = load(client, port, {"code": SNIPPET}, 16, 1000, a.seconds)
        print(f"static, open loop 1000/s: {r['req_per_s']:.0f} req/s, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, "
              f"max {r['max_ms']:.1f} ms, status {r['status']} (target p99 < 5 ms)", flush=True)
        res["static_1000"] = r
        r = load(client, port, {"code": SNIPPET}, 16, 0, a.seconds)
        print(f"static, closed loop 16 conns: {r['req_per_s']:.0f} req/s, p50 {r['p50_ms']:.2f} ms, "
              f"p99 {r['p99_ms']:.2f} ms, status {r['status']}", flush=True)
        res["static_max"] = r
        r = load(client, port, {"code": sol, "task_id": "sg/binary_search_leftmost"}, 2, 0, a.seconds)
        print(f"golden task, closed loop 2 conns: {r['req_per_s']:.2f} req/s, p50 {r['p50_ms']:.0f} ms, "
              f"p99 {r['p99_ms']:.0f} ms, status {r['status']}", flush=True)
        res["golden"] = r
        body = {"code": sol, "task_id": "sg/binary_search_leftmost"}
        r = load(client, port, body, 1, 0, a.seconds)
        n = golden_cases(port, body)
        naive = naive_case_ms(sol)
        print(f"golden task, one request at a time: {r['req_per_s']:.2f} req/s, p50 {r['p50_ms']:.1f} ms, "
              f"p99 {r['p99_ms']:.1f} ms, status {r['status']} (target p50 < 60 ms); "
              f"naive, a python3 per case: {n} cases x {naive:.1f} ms = {n * naive:.0f} ms "
              f"(x{n * naive / r['p50_ms']:.1f} the p50)", flush=True)
        res["golden_one"] = dict(r, cases=n, naive_case_ms=naive, naive_ms=n * naive)
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=120)
        os.unlink(errf)
    res["load_after"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=2)


if __name__ == "__main__":
    main()
