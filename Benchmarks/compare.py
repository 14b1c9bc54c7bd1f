#!/usr/bin/env python3
"""Runs the reference clients (raw C libcurl, AsyncHTTPClient and URLSession used directly) and yard's
transports, bare and through the standard chain, interleaved against one loopback server; reads each
client process's own rusage with os.wait4; prints medians and the target ratios. Driven by
Benchmarks/compare.sh, which builds the clients and starts nginx."""
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
p.add_argument("--c-client", help="the raw C libcurl client (curl_multi_load); required unless --replay")
p.add_argument("--ahc-client", help="AsyncHTTPClient used directly (ahc-load)")
p.add_argument("--urlsession-client", help="URLSession used directly (urlsession-load)")
p.add_argument("--floor-client", help="the least an async Swift API over libcurl does (curl-async-floor)")
p.add_argument("--yard", help="the yard executable; required unless --replay")
p.add_argument("--yard-before", help="an older yard build, run beside the current one")
p.add_argument("--clients", nargs="+", help="names of the clients to run (default: all available)")
p.add_argument("--requests", type=int, default=40000)
p.add_argument("--urlsession-requests", type=int, help="requests per URLSession cell (default: a quarter)")
p.add_argument("--rounds", type=int, default=5)
p.add_argument("--warmup", type=int, default=500)
p.add_argument("--startup-requests", type=int, default=200,
               help="requests of the short run beside each cell whose CPU is the process's fixed cost (0: none)")
p.add_argument("--max-seconds", type=float, default=30)
p.add_argument("--levels", type=int, nargs="+", default=[1, 16, 64])
p.add_argument("--raw")
p.add_argument("--callgrind", metavar="DIR",
               help="run every client under valgrind's callgrind, its profiles in DIR, and compare instructions per "
                    "request (repeatable where wall-clock CPU is not) instead of time")
p.add_argument("--preload", help="a library LD_PRELOADed into each client under callgrind (the dispatch_main loop)")
p.add_argument("--replay", help="print the tables of an earlier run's --raw file instead of running clients")
args = p.parse_args()
if not args.replay and not (args.c_client and args.yard):
    p.error("--c-client and --yard are required unless --replay is given")


def requests_for(name):
    """URLSession on Linux is an order of magnitude slower; its cells make fewer requests."""
    if "URLSession" in name or "urlsession" in name:
        return args.urlsession_requests or max(1000, args.requests // 4)
    return args.requests


def yard_cmd(binary, transport, chain, name, *extra):
    if args.callgrind and transport == "curl":
        # curl's event loop spins for a while before it sleeps: under callgrind that is time, not work.
        extra = (*extra, "--curl-busy-poll-us", "0")
    return lambda c, n=None: [binary, "bench", "--url", URL, "--transport", transport, "--chain", chain, "--concurrency", str(c),
                              "--requests", str(n or requests_for(name)), "--warmup", str(args.warmup),
                              "--max-seconds", str(args.max_seconds), "--result-line", *extra]


def reference_cmd(binary, name):
    return lambda c, n=None: [binary, URL, str(c), str(n or requests_for(name)), str(args.max_seconds), str(args.warmup)]


# (name, command for a concurrency); names are what the ratios below refer to.
available = [("C libcurl", reference_cmd(args.c_client, "C libcurl")),
             ("curl bare", yard_cmd(args.yard, "curl", "bare", "curl bare")),
             ("curl standard", yard_cmd(args.yard, "curl", "standard", "curl standard")),
             # The load's tasks on curl's loop thread (Transport.taskExecutor): no hand-off between threads.
             ("curl bare, on loop", yard_cmd(args.yard, "curl", "bare", "curl bare, on loop", "--on-transport-executor")),
             ("curl standard, on loop",
              yard_cmd(args.yard, "curl", "standard", "curl standard, on loop", "--on-transport-executor")),
             ("curl default", yard_cmd(args.yard, "curl", "default", "curl default"))]
if args.floor_client or args.replay:
    # libcurl's work plus one continuation, hand-off and resumption per request: what any async Swift
    # client over libcurl pays, so "curl bare ÷ async floor" is Switchyard's own cost.
    available.insert(1, ("async floor", reference_cmd(args.floor_client, "async floor")))
if args.ahc_client or args.replay:
    available += [("AsyncHTTPClient direct", reference_cmd(args.ahc_client, "AsyncHTTPClient direct")),
                  ("ahc bare", yard_cmd(args.yard, "ahc", "bare", "ahc bare")),
                  # The app's own HTTPClient, configured as the direct reference's, wrapped by the transport.
                  ("ahc wrapped", yard_cmd(args.yard, "ahc", "bare", "ahc wrapped", "--wrap-client"))]
if args.urlsession_client or args.replay:
    available += [("URLSession direct", reference_cmd(args.urlsession_client, "URLSession direct")),
                  ("urlsession bare", yard_cmd(args.yard, "urlsession", "bare", "urlsession bare"))]
if args.yard_before or args.replay:
    available += [("curl bare (before)", yard_cmd(args.yard_before, "curl", "bare", "curl bare (before)")),
                  ("curl standard (before)", yard_cmd(args.yard_before, "curl", "standard", "curl standard (before)")),
                  ("ahc wrapped (before)", yard_cmd(args.yard_before, "ahc", "bare", "ahc wrapped (before)", "--wrap-client")),
                  ("urlsession bare (before)", yard_cmd(args.yard_before, "urlsession", "bare", "urlsession bare (before)"))]
clients = [(n, m) for n, m in available if not args.clients or n in args.clients]


def run(cmd):
    """Runs one client to completion; returns its RESULT fields plus its own rusage per request."""
    start = time.monotonic()
    env, profile = None, None
    if args.callgrind:
        global profiles_run
        profiles_run += 1
        profile = os.path.join(args.callgrind, f"callgrind.{profiles_run}.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", *cmd]
        env = dict(os.environ, SWIFT_BACKTRACE="enable=no", **({"LD_PRELOAD": args.preload} if args.preload else {}))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
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
    made = ok + errors + args.warmup  # warm-up requests cost CPU too
    instructions = {"instructions": instructions_in(profile)} if profile else {}
    return {
        **instructions,
        "rps": float(fields["rps"]), "p50": float(fields["p50_us"]), "p99": float(fields["p99_us"]),
        "ok": ok, "errors": errors, "made": made,
        "user_s": usage.ru_utime, "sys_s": usage.ru_stime,
        "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6 / made,
        "user_us": usage.ru_utime * 1e6 / made, "sys_us": usage.ru_stime * 1e6 / made,
        "csw": (usage.ru_nvcsw + usage.ru_nivcsw) / made,
        "vcsw": usage.ru_nvcsw / made, "ivcsw": usage.ru_nivcsw / made,
        "maxrss_mib": usage.ru_maxrss / 1024, "status": proc.returncode,
    }


profiles_run = 0


def instructions_in(profile):
    """The total instructions (Ir) a callgrind profile counted; None if it has none."""
    try:
        with open(profile) as lines:
            for line in lines:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def exclude_startup(r, short):
    """Per-request CPU as the difference of two runs of the same client (the cell's and a short one),
    so the process's fixed cost (loading, parsing arguments, making the client and its threads) is
    not spread over the requests; the whole-process figure stays as `cpu_whole_us`."""
    r["cpu_whole_us"] = r["cpu_us"]
    if r.get("instructions") is not None:
        r["kinstr_whole"] = r["kinstr"] = r["instructions"] / r["made"] / 1000
        if short is not None and short.get("instructions") is not None and r["made"] > short["made"]:
            r["kinstr"] = (r["instructions"] - short["instructions"]) / (r["made"] - short["made"]) / 1000
    if short is None or short.get("failed") or r["made"] <= short["made"]:
        return
    made = r["made"] - short["made"]
    r["user_us"] = (r["user_s"] - short["user_s"]) * 1e6 / made
    r["sys_us"] = (r["sys_s"] - short["sys_s"]) * 1e6 / made
    r["cpu_us"] = r["user_us"] + r["sys_us"]


results = {}
raw = open(args.raw, "w") if args.raw else None
if args.replay:
    with open(args.replay) as replayed:
        for line in replayed:
            r = json.loads(line)
            r.setdefault("cpu_whole_us", r.get("cpu_us"))  # runs from before the fixed cost was separated
            results.setdefault((r["client"], r["c"]), []).append(r)
    rounds_run = {r["round"] for runs in results.values() for r in runs}
    args.rounds = len(rounds_run)
    present = {name for name, _ in results}
    clients = [(n, m) for n, m in clients if n in present]
for rnd in range(1, 0 if args.replay else args.rounds + 1):
    for c in args.levels:
        for name, make in clients:
            short = run(make(c, args.startup_requests)) if args.startup_requests else None
            r = run(make(c))
            if not r.get("failed"):
                exclude_startup(r, short)
            r.update(round=rnd, client=name, c=c)
            results.setdefault((name, c), []).append(r)
            if raw:
                raw.write(json.dumps(r) + "\n")
                raw.flush()
            if r.get("failed"):
                print(f"round {rnd} {name} c={c}: FAILED {r}", file=sys.stderr)
            else:
                print(f"round {rnd} {name:>24} c={c:<3} {r['rps']:>9,.0f} req/s  cpu {r['cpu_us']:6.1f} µs/req "
                      f"({r['cpu_whole_us']:6.1f} whole)  "
                      f"csw {r['csw']:5.2f}/req  p50 {r['p50']:.0f} µs  p99 {r['p99']:.0f} µs"
                      + (f"  {r['kinstr']:,.1f}k instructions/req" if r.get("kinstr") is not None else "")
                      + (f"  errors {r['errors']}" if r["errors"] else ""), file=sys.stderr)
            time.sleep(0.5)


def med(name, c, key):
    vals = [r[key] for r in results.get((name, c), []) if not r.get("failed")]
    return statistics.median(vals) if vals else None


def f(x, nd=0):
    return "–" if x is None else f"{x:,.{nd}f}"


def errors_of(name, c):
    return sum(r.get("errors", 0) for r in results.get((name, c), []) if not r.get("failed"))


if args.callgrind:
    print(f"\nInstructions per request under callgrind ({args.requests:,} requests per cell, +{args.warmup} warm-up, "
          f"{args.rounds} round(s); the difference from a run of {args.startup_requests} requests beside each cell, "
          f"so the process's fixed cost is not counted; the whole process's count divided by its requests beside it). "
          f"valgrind runs one thread at a time: the counts are the work done, not the time it takes.\n")
    print("| client | c | k instructions/request | whole process | errors |")
    print("|---|---:|---:|---:|---:|")
    for name, _ in clients:
        for c in args.levels:
            print(f"| {name} | {c} | {f(med(name, c, 'kinstr'), 1)} | {f(med(name, c, 'kinstr_whole'), 1)} | {errors_of(name, c)} |")
else:
    print(f"\n{args.requests:,} requests per cell ({requests_for('URLSession'):,} for URLSession; +{args.warmup} warm-up), {args.rounds} interleaved rounds, medians; "
          f"CPU and context switches are each client process's own rusage per request, warm-up included; "
          f"CPU per request excludes the process's fixed cost (the difference from a run of {args.startup_requests} requests "
          f"beside each cell), the whole process's CPU divided by its requests is beside it.\n")
    print("| client | c | req/s | CPU µs/req (user+sys) | whole process µs/req | p50 µs | p99 µs | ctx sw/req (vol+invol) | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, _ in clients:
        for c in args.levels:
            errs = errors_of(name, c)
            fails = sum(1 for r in results.get((name, c), []) if r.get("failed"))
            print(f"| {name} | {c} | {f(med(name, c, 'rps'))} | {f(med(name, c, 'cpu_us'), 1)} "
                  f"({f(med(name, c, 'user_us'), 1)}+{f(med(name, c, 'sys_us'), 1)}) | {f(med(name, c, 'cpu_whole_us'), 1)} | "
                  f"{f(med(name, c, 'p50'))} | "
                  f"{f(med(name, c, 'p99'))} | {f(med(name, c, 'csw'), 2)} ({f(med(name, c, 'vcsw'), 2)}+"
                  f"{f(med(name, c, 'ivcsw'), 2)}) | {errs}{f' ({fails} runs failed)' if fails else ''} |")


def ratio(a, b, c, key):
    x, y = med(a, c, key), med(b, c, key)
    return None if x is None or not y else x / y


def per_round_ratios(a, b, c, key):
    """The ratio within each round (same conditions); their median and range show the spread."""
    ra = {r["round"]: r[key] for r in results.get((a, c), []) if not r.get("failed") and r.get(key) is not None}
    rb = {r["round"]: r[key] for r in results.get((b, c), []) if not r.get("failed") and r.get(key) is not None}
    return sorted(ra[k] / rb[k] for k in ra if k in rb and rb[k])


rows = []
def target(label, a, b, c, key, op, goal):
    if args.callgrind:
        # Under callgrind only the work is comparable: CPU ratios become instruction ratios, the rest is dropped.
        if key != "cpu_us":
            return
        label, key = label.replace("CPU/request", "instructions/request"), "kinstr"
    r, rounds = ratio(a, b, c, key), per_round_ratios(a, b, c, key)
    if r is None or not rounds:
        if goal != "–":
            rows.append((label, "–", "–", "", f"{op} {goal}", "not measured"))
        return
    spread = f"{statistics.median(rounds):.2f} ({rounds[0]:.2f}–{rounds[-1]:.2f})"
    whole = {"cpu_us": "cpu_whole_us", "kinstr": "kinstr_whole"}.get(key)
    whole = ratio(a, b, c, whole) if whole else None
    whole = "" if whole is None else f"{whole:.2f}"
    if goal == "–":
        rows.append((label, f"{r:.2f}", spread, whole, "–", ""))
        return
    met = r <= goal if op == "≤" else r >= goal
    rows.append((label, f"{r:.2f}", spread, whole, f"{op} {goal}", "met" if met else "gap"))


for c in args.levels:
    if c in (16, 64):
        target(f"curl bare ÷ C libcurl, CPU/request, c={c}", "curl bare", "C libcurl", c, "cpu_us", "≤", 1.25)
    target(f"curl bare ÷ C libcurl, req/s, c={c}", "curl bare", "C libcurl", c, "rps", "≥", 0.9)
    if c == 1:
        target("curl bare ÷ C libcurl, p50 latency, c=1", "curl bare", "C libcurl", c, "p50", "≤", 1.1)
for c in args.levels:
    target(f"async floor ÷ C libcurl, CPU/request, c={c}", "async floor", "C libcurl", c, "cpu_us", "≤", "–")
    target(f"async floor ÷ C libcurl, req/s, c={c}", "async floor", "C libcurl", c, "rps", "≥", "–")
    # Issue 42: Switchyard's own cost over the least an async Swift client over libcurl does.
    target(f"curl bare ÷ async floor, CPU/request, c={c}", "curl bare", "async floor", c, "cpu_us", "≤", 1.15)
    target(f"curl bare ÷ async floor, req/s, c={c}", "curl bare", "async floor", c, "rps", "≥", 0.95)
    # The transport-executor mode beside the default: the load's tasks on curl's loop thread.
    target(f"curl bare, on loop ÷ async floor, CPU/request, c={c}", "curl bare, on loop", "async floor", c, "cpu_us", "≤", "–")
    target(f"curl bare, on loop ÷ async floor, req/s, c={c}", "curl bare, on loop", "async floor", c, "rps", "≥", "–")
for c in args.levels:
    target(f"curl standard ÷ curl bare, CPU/request, c={c}", "curl standard", "curl bare", c, "cpu_us", "≤", 1.10 if c == 64 else "–")
    target(f"curl standard ÷ curl bare, req/s, c={c}", "curl standard", "curl bare", c, "rps", "≥", 0.9 if c == 64 else "–")
for c in args.levels:
    target(f"curl standard ÷ AsyncHTTPClient direct, req/s, c={c}", "curl standard", "AsyncHTTPClient direct", c, "rps", "≥", 1.5 if c == 64 else "–")
    target(f"curl standard ÷ AsyncHTTPClient direct, CPU/request, c={c}", "curl standard", "AsyncHTTPClient direct", c, "cpu_us", "≤", 0.6 if c == 64 else "–")
for c in args.levels:
    target(f"ahc bare ÷ AsyncHTTPClient direct, CPU/request, c={c}", "ahc bare", "AsyncHTTPClient direct", c, "cpu_us", "≤", 1.1)
    target(f"ahc bare ÷ AsyncHTTPClient direct, req/s, c={c}", "ahc bare", "AsyncHTTPClient direct", c, "rps", "≥", 0.95)
    target(f"ahc wrapped ÷ AsyncHTTPClient direct, CPU/request, c={c}", "ahc wrapped", "AsyncHTTPClient direct", c, "cpu_us", "≤", 1.1)
    target(f"ahc wrapped ÷ AsyncHTTPClient direct, req/s, c={c}", "ahc wrapped", "AsyncHTTPClient direct", c, "rps", "≥", 0.95)
    target(f"urlsession bare ÷ URLSession direct, CPU/request, c={c}", "urlsession bare", "URLSession direct", c, "cpu_us", "≤", 1.1)
    target(f"urlsession bare ÷ URLSession direct, req/s, c={c}", "urlsession bare", "URLSession direct", c, "rps", "≥", 0.95)
for c in args.levels:
    if c in (16, 64):
        target(f"curl bare, on loop ÷ C libcurl, CPU/request, c={c}", "curl bare, on loop", "C libcurl", c, "cpu_us", "≤", 1.25)
    target(f"curl bare, on loop ÷ C libcurl, req/s, c={c}", "curl bare, on loop", "C libcurl", c, "rps", "≥", 0.9)
    target(f"curl standard, on loop ÷ curl bare, on loop, CPU/request, c={c}", "curl standard, on loop", "curl bare, on loop", c,
           "cpu_us", "≤", 1.15 if c == 64 else "–")
    target(f"curl standard, on loop ÷ AsyncHTTPClient direct, req/s, c={c}", "curl standard, on loop", "AsyncHTTPClient direct", c,
           "rps", "≥", 1.5 if c == 64 else "–")
    target(f"curl standard, on loop ÷ AsyncHTTPClient direct, CPU/request, c={c}", "curl standard, on loop", "AsyncHTTPClient direct", c,
           "cpu_us", "≤", 0.6 if c == 64 else "–")
if args.yard_before or (args.replay and any(n.endswith("(before)") for n, _ in results)):
    for c in args.levels:
        for name in ("curl bare", "curl standard", "ahc wrapped", "urlsession bare"):
            target(f"{name} after ÷ before, CPU/request, c={c}", name, f"{name} (before)", c, "cpu_us", "≤", "–")

print("\n| ratio | of medians | per round: median (range) | whole process | target | |\n|---|---:|---:|---:|---:|---|")
for label, r, rr, whole, goal, verdict in rows:
    print(f"| {label} | {r} | {rr} | {whole} | {goal} | {verdict} |")
