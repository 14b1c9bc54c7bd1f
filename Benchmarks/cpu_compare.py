#!/usr/bin/env python3
"""Runs raw C libcurl and yard's curl transport (bare and default chain) interleaved against one
loopback server, reading each client process's own rusage with os.wait4, and prints medians and the
issue-11 target ratios. Driven by Benchmarks/cpu-compare.sh, which starts nginx."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

URL = "http://127.0.0.1:18080/small"

p = argparse.ArgumentParser()
p.add_argument("--c-client", required=True)
p.add_argument("--yard", required=True)
p.add_argument("--yard-before")
p.add_argument("--requests", type=int, default=40000)
p.add_argument("--rounds", type=int, default=5)
p.add_argument("--warmup", type=int, default=500)
p.add_argument("--max-seconds", type=float, default=30)
p.add_argument("--levels", type=int, nargs="+", default=[1, 16, 64])
p.add_argument("--raw")
args = p.parse_args()


def yard_cmd(binary, chain, c):
    return [binary, "bench", "--url", URL, "--transport", "curl", "--chain", chain, "--concurrency", str(c),
            "--requests", str(args.requests), "--warmup", str(args.warmup), "--max-seconds", str(args.max_seconds),
            "--result-line"]


clients = [("C libcurl", lambda c: [args.c_client, URL, str(c), str(args.requests), str(args.max_seconds), str(args.warmup)]),
           ("bare", lambda c: yard_cmd(args.yard, "bare", c)),
           ("default", lambda c: yard_cmd(args.yard, "default", c))]
if args.yard_before:
    clients += [("bare (before)", lambda c: yard_cmd(args.yard_before, "bare", c)),
                ("default (before)", lambda c: yard_cmd(args.yard_before, "default", c))]


def run(cmd):
    """Runs one client to completion; returns its RESULT fields plus its own rusage per request."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = start + args.max_seconds * 2 + 60
    out = b""
    # Read stdout to the end (bounded by the process's own --max-seconds; killed past the deadline).
    while True:
        if time.monotonic() > deadline:
            proc.kill()
            break
        chunk = proc.stdout.read1(65536) if hasattr(proc.stdout, "read1") else proc.stdout.read()
        if not chunk:
            break
        out += chunk
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    m = re.search(r"^RESULT (.*)$", out.decode(errors="replace"), re.M)
    if not m:
        return {"failed": True, "stderr": err[-500:], "status": proc.returncode}
    fields = dict(kv.split("=", 1) for kv in m.group(1).split())
    ok, errors = int(fields["ok"]), int(fields["errors"])
    made = ok + errors + args.warmup
    return {
        "rps": float(fields["rps"]), "p50": float(fields["p50_us"]), "p99": float(fields["p99_us"]),
        "ok": ok, "errors": errors,
        "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6 / made,
        "user_us": usage.ru_utime * 1e6 / made, "sys_us": usage.ru_stime * 1e6 / made,
        "csw": (usage.ru_nvcsw + usage.ru_nivcsw) / made,
        "vcsw": usage.ru_nvcsw / made, "ivcsw": usage.ru_nivcsw / made,
        "maxrss_mib": usage.ru_maxrss / 1024, "status": proc.returncode,
    }


results = {}
raw = open(args.raw, "w") if args.raw else None
for rnd in range(1, args.rounds + 1):
    for c in args.levels:
        for name, make in clients:
            r = run(make(c))
            r.update(round=rnd, client=name, c=c)
            results.setdefault((name, c), []).append(r)
            if raw:
                raw.write(json.dumps(r) + "\n")
                raw.flush()
            if r.get("failed"):
                print(f"round {rnd} {name} c={c}: FAILED {r}", file=sys.stderr)
            else:
                print(f"round {rnd} {name:>16} c={c:<3} {r['rps']:>9,.0f} req/s  cpu {r['cpu_us']:6.1f} µs/req  "
                      f"csw {r['csw']:5.2f}/req  p50 {r['p50']:.0f} µs  p99 {r['p99']:.0f} µs"
                      + (f"  errors {r['errors']}" if r["errors"] else ""), file=sys.stderr)
            time.sleep(0.5)


def med(name, c, key):
    vals = [r[key] for r in results.get((name, c), []) if not r.get("failed")]
    return statistics.median(vals) if vals else None


def f(x, nd=0):
    return "–" if x is None else f"{x:,.{nd}f}"


print(f"\n{args.requests:,} requests per cell (+{args.warmup} warm-up), {args.rounds} interleaved rounds, medians; "
      f"CPU and context switches are each client process's own rusage per request, warm-up included.\n")
print("| client | c | req/s | CPU µs/req (user+sys) | p50 µs | p99 µs | ctx sw/req (vol+invol) | errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, _ in clients:
    for c in args.levels:
        errs = sum(r.get("errors", 0) for r in results.get((name, c), []) if not r.get("failed"))
        fails = sum(1 for r in results.get((name, c), []) if r.get("failed"))
        print(f"| {name} | {c} | {f(med(name, c, 'rps'))} | {f(med(name, c, 'cpu_us'), 1)} "
              f"({f(med(name, c, 'user_us'), 1)}+{f(med(name, c, 'sys_us'), 1)}) | {f(med(name, c, 'p50'))} | "
              f"{f(med(name, c, 'p99'))} | {f(med(name, c, 'csw'), 2)} ({f(med(name, c, 'vcsw'), 2)}+"
              f"{f(med(name, c, 'ivcsw'), 2)}) | {errs}{f' ({fails} runs failed)' if fails else ''} |")


def ratio(a, b, c, key):
    x, y = med(a, c, key), med(b, c, key)
    return None if x is None or not y else x / y


def per_round_ratio(a, b, c, key):
    """The ratio within each round (same conditions), then the median of those."""
    ra = {r["round"]: r[key] for r in results.get((a, c), []) if not r.get("failed")}
    rb = {r["round"]: r[key] for r in results.get((b, c), []) if not r.get("failed")}
    vals = [ra[k] / rb[k] for k in ra if k in rb and rb[k]]
    return statistics.median(vals) if vals else None


rows = []
def target(label, a, b, c, key, op, goal):
    r, rr = ratio(a, b, c, key), per_round_ratio(a, b, c, key)
    if r is None:
        rows.append((label, "–", "–", f"{op} {goal}", "not measured"))
        return
    if goal == "–":
        rows.append((label, f"{r:.2f}", f"{rr:.2f}", "–", ""))
        return
    met = r <= goal if op == "≤" else r >= goal
    rows.append((label, f"{r:.2f}", f"{rr:.2f}", f"{op} {goal}", "met" if met else "gap"))


for c in args.levels:
    if c in (16, 64):
        target(f"bare ÷ C, CPU/request, c={c}", "bare", "C libcurl", c, "cpu_us", "≤", 1.25)
    target(f"bare ÷ C, req/s, c={c}", "bare", "C libcurl", c, "rps", "≥", 0.9)
for c in args.levels:
    target(f"default ÷ bare, CPU/request, c={c}", "default", "bare", c, "cpu_us", "≤", 1.15 if c == 64 else "–")
    target(f"default ÷ bare, req/s, c={c}", "default", "bare", c, "rps", "≥", 0.9 if c == 64 else "–")
if args.yard_before:
    for c in args.levels:
        target(f"bare after ÷ before, CPU/request, c={c}", "bare", "bare (before)", c, "cpu_us", "≤", 1.0)
        target(f"bare after ÷ before, req/s, c={c}", "bare", "bare (before)", c, "rps", "≥", 1.0)
        target(f"default after ÷ before, CPU/request, c={c}", "default", "default (before)", c, "cpu_us", "≤", 1.0)

print("\n| ratio | of medians | median of per-round ratios | target | |\n|---|---:|---:|---:|---|")
for label, r, rr, goal, verdict in rows:
    print(f"| {label} | {r} | {rr} | {goal} | {verdict} |")
