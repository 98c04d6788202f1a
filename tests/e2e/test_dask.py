#!/usr/bin/env python3
"""`snipgate audit` as a stage of a real distributed engine: Dask distributed (Debian's
python3-distributed). The test starts a scheduler and two worker processes on loopback; each
partition runs `snipgate audit` on a worker; the merged result must equal a single-machine run,
record for record. Two recipes (docs/audit.md):

  - shards: partition i runs `snipgate audit --shard i/N CORPUS` (the corpus on a shared path);
    the merged lines equal the single-machine run's exactly;
  - pipe: a dask.bag of the corpus's lines, each partition piped through `snipgate audit` on
    stdin (Spark's RDD.pipe() contract); equal record for record but for `source` (stdin lines are
    counted per partition).

usage: test_dask.py SNIPGATE_BINARY   (exit 77: python3-distributed is not installed)
The last line is exactly "N passed, M failed".
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

try:
    import dask.bag as db
    from distributed import Client, get_worker
except ImportError as e:
    print(f"SKIP: Dask distributed is not installed ({e}); scripts/setup.sh installs python3-distributed")
    sys.exit(77)

SG = os.path.abspath(sys.argv[1])
TMP = tempfile.mkdtemp(prefix="sg_dask_")
PY = "/usr/bin/python3"


def corpus(path, n):
    with open(path, "w") as f:
        for i in range(n):
            code = f"import os\nos.system('x{i}')\n" if i % 5 == 0 else f"def f{i}(x):\n    return x * {i}\n"
            if i % 37 == 0:
                f.write("{not json\n")
            f.write(json.dumps({"id": f"rec-{i}", "code": code}) + "\n")


def audit_shard(sg, path, i, n):
    """Runs on a Dask worker."""
    p = subprocess.run([sg, "audit", "--static-only", "--quiet", "-j", "1", "--shard", f"{i}/{n}", path],
                       capture_output=True, timeout=600)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"snipgate audit exit {p.returncode}: {p.stderr[:500]!r}")
    return [(get_worker().address, p.stdout.decode().splitlines())]


def audit_pipe(lines, sg):
    """Runs on a Dask worker: the partition's records through snipgate audit on stdin."""
    data = "".join(x + "\n" for x in lines).encode()
    p = subprocess.run([sg, "audit", "--static-only", "--quiet", "-j", "1"], input=data, capture_output=True,
                       timeout=600)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"snipgate audit exit {p.returncode}: {p.stderr[:500]!r}")
    return [(get_worker().address, p.stdout.decode().splitlines())]


class Failure(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failure(what)


def start_cluster():
    sched_file = os.path.join(TMP, "scheduler.json")
    procs = [subprocess.Popen([PY, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", sched_file],
                              stdout=subprocess.DEVNULL, stderr=open(os.path.join(TMP, "scheduler.log"), "wb"))]
    deadline = time.time() + 60
    while not os.path.exists(sched_file) and time.time() < deadline:
        time.sleep(0.1)
    expect(os.path.exists(sched_file), "the scheduler did not start")
    for k in range(2):
        procs.append(subprocess.Popen([PY, "-m", "distributed.cli.dask_worker", "--scheduler-file", sched_file,
                                       "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard",
                                       "--local-directory", os.path.join(TMP, f"w{k}")],
                                      stdout=subprocess.DEVNULL,
                                      stderr=open(os.path.join(TMP, f"worker{k}.log"), "wb")))
    client = Client(scheduler_file=sched_file, timeout=60)
    client.wait_for_workers(2, timeout=60)
    return client, procs


def main():
    path = os.path.join(TMP, "corpus.jsonl")
    corpus(path, 600)
    single = subprocess.run([SG, "audit", "--static-only", "--quiet", path], capture_output=True, timeout=600)
    expect(single.returncode == 1, f"single-machine run exit {single.returncode}")
    whole = single.stdout.decode().splitlines()
    by_id = {json.loads(x)["id"]: json.loads(x) for x in whole}
    expect(len(whole) == 617 and len(by_id) == 617, f"{len(whole)} lines")

    passed = failed = 0
    client, procs = start_cluster()
    try:
        for name in ("shards", "pipe"):
            try:
                if name == "shards":
                    n = 8
                    futures = [client.submit(audit_shard, SG, path, i, n, pure=False) for i in range(n)]
                    parts = sum(client.gather(futures), [])
                else:
                    with open(path) as f:
                        bag = db.from_sequence([x.rstrip("\n") for x in f], npartitions=8)
                    parts = bag.map_partitions(audit_pipe, SG).compute()
                workers = {w for w, _ in parts}
                merged = sum((lines for _, lines in parts), [])
                expect(len(workers) == 2, f"{name}: partitions ran on {len(workers)} worker(s), want 2")
                if name == "shards":
                    expect(sorted(merged) == sorted(whole), f"{name}: merged lines differ from the single run")
                else:
                    got = {}
                    for x in merged:
                        r = json.loads(x)
                        r.pop("source")
                        got.setdefault(r["id"], []).append(r)
                    # records without an id are named by their stdin line: compare the ones with ids
                    want = {k: v for k, v in by_id.items() if not k.startswith(path)}
                    for v in want.values():
                        v.pop("source", None)
                    with_ids = {k: v for k, v in got.items() if not k.startswith("<stdin>")}
                    expect(with_ids.keys() == want.keys(), f"{name}: ids differ")
                    expect(all(len(v) == 1 and v[0] == want[k] for k, v in with_ids.items()),
                           f"{name}: a record differs or is duplicated")
                    bad = sum(len(v) for k, v in got.items() if k.startswith("<stdin>"))
                    expect(bad == len(by_id) - len(want), f"{name}: {bad} id-less error lines, want "
                                                          f"{len(by_id) - len(want)}")
                print(f"ok   dask_{name}: {len(merged)} records on {len(workers)} workers equal the single run")
                passed += 1
            except Failure as e:
                print(f"FAIL dask_{name}: {e}")
                failed += 1
            except Exception:
                print(f"FAIL dask_{name}: {traceback.format_exc()}")
                failed += 1
    finally:
        client.close()
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(TMP, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print(f"FAIL setup: {e}\n0 passed, 1 failed")
        shutil.rmtree(TMP, ignore_errors=True)
        sys.exit(1)
