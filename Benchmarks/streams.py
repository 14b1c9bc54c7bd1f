#!/usr/bin/env python3
"""Server-sent events and WebSocket messages: Switchyard (`yard bench events`, `yard bench ws`) beside
the raw references of Benchmarks/Reference (ahc-sse-load, nio-ws-load), interleaved against one
`yard serve` process. Each client is a child process whose own rusage is read with os.wait4 when it
exits, as Benchmarks/compare.py does; each also prints one JSON line with its measured stretch
(count, elapsed_us, user_us, sys_us). Prints medians over rounds and the ratios Switchyard ÷ raw.
Driven by Benchmarks/streams.sh, which builds the clients and starts the server."""
import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

p = argparse.ArgumentParser()
p.add_argument("--base", default="http://127.0.0.1:18090", help="the yard serve base URL")
p.add_argument("--yard")
p.add_argument("--sse-client", help="ahc-sse-load")
p.add_argument("--ws-client", help="nio-ws-load")
p.add_argument("--events", type=int, default=2000000)
p.add_argument("--messages", type=int, default=40000)
p.add_argument("--size", type=int, default=16)
p.add_argument("--windows", type=int, nargs="+", default=[1, 16])
p.add_argument("--warmup", type=int, default=1000, help="unmeasured WebSocket round trips per cell")
p.add_argument("--transports", nargs="+", default=["curl", "urlsession", "ahc"])
p.add_argument("--rounds", type=int, default=5)
p.add_argument("--max-seconds", type=float, default=60, help="a cell still running after this is killed")
p.add_argument("--raw", help="write every cell as a JSON line here")
p.add_argument("--replay", help="print the tables of an earlier --raw file instead of running")
args = p.parse_args()
if not args.replay and not (args.yard and args.sse_client and args.ws_client):
    p.error("--yard, --sse-client and --ws-client are required unless --replay is given")

SSE_RAW = "AHC raw"
WS_LOOP, WS_ASYNC, WS_YARD = "NIO raw, event loop", "NIO raw, NIOAsyncChannel", "yard ws"
# deflate=off: the peer declines permessage-deflate, so every client sends and reads plain frames.
ws_url = args.base.replace("http://", "ws://") + "/ws/echo?deflate=off"


def sse_cells(rnd):
    url = f"{args.base}/events/r{rnd}?total={args.events}"
    cells = [(SSE_RAW, [args.sse_client, url, str(args.events)])]
    for t in args.transports:
        cells.append((f"yard {t}", [args.yard, "bench", "events", url, "--events", str(args.events), "--transport", t]))
    return [("sse", None, name, cmd, 0) for name, cmd in cells]


def ws_cells(window):
    common = [str(args.messages), str(args.size), str(window), str(args.warmup)]
    cells = [(WS_LOOP, [args.ws_client, ws_url, *common, "loop"]),
             (WS_ASYNC, [args.ws_client, ws_url, *common, "async"]),
             (WS_YARD, [args.yard, "bench", "ws", ws_url, "--messages", str(args.messages), "--size", str(args.size),
                        "--window", str(window), "--warmup", str(args.warmup)])]
    return [("ws", window, name, cmd, args.warmup) for name, cmd in cells]


def run(cmd, warmup):
    """Runs one client to completion (killed past --max-seconds); its JSON line plus its rusage per unit."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        deadline, out = time.monotonic() + args.max_seconds, b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                proc.kill()
                break
            if select.select([proc.stdout], [], [], left)[0]:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
        _, status, usage = os.wait4(proc.pid, 0)
        err.seek(0)
        stderr = err.read().decode(errors="replace")[-400:]
    lines = [line for line in out.decode(errors="replace").splitlines() if line.startswith("{")]
    code = os.waitstatus_to_exitcode(status)
    if not lines or code != 0:
        return {"failed": True, "status": code, "stderr": stderr}
    r = json.loads(lines[-1])
    count = r["count"]
    made = r.get("total", count + warmup)  # every event or message the process handled, warm-up included
    return {"per_s": r["per_s"], "count": count,
            "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6 / made,
            "stretch_cpu_us": (r["user_us"] + r["sys_us"]) / count,
            "stretch_user_us": r["user_us"] / count, "stretch_sys_us": r["sys_us"] / count,
            "csw": (usage.ru_nvcsw + usage.ru_nivcsw) / made, "maxrss_mib": usage.ru_maxrss / 1024}


results = {}  # (kind, window, name) -> [cell]
order = []
if args.replay:
    with open(args.replay) as replayed:
        for line in replayed:
            r = json.loads(line)
            key = (r["kind"], r["window"], r["client"])
            results.setdefault(key, []).append(r)
            if key not in order:
                order.append(key)
else:
    raw = open(args.raw, "w") if args.raw else None
    for rnd in range(1, args.rounds + 1):
        groups = [sse_cells(rnd)] + [ws_cells(w) for w in args.windows]
        for group in groups:
            group = group[rnd % len(group):] + group[:rnd % len(group)]  # each client goes first in turn
            for kind, window, name, cmd, warmup in group:
                key = (kind, window, name)
                if key not in order:
                    order.append(key)
                r = run(cmd, warmup)
                r.update(round=rnd, kind=kind, window=window, client=name)
                results.setdefault(key, []).append(r)
                if raw:
                    raw.write(json.dumps(r) + "\n")
                    raw.flush()
                unit = "events" if kind == "sse" else "msgs"
                label = name if window is None else f"{name} w={window}"
                if r.get("failed"):
                    print(f"round {rnd} {label}: FAILED {r}", file=sys.stderr)
                else:
                    print(f"round {rnd} {label:>32} {r['per_s']:>11,.0f} {unit}/s  cpu {r['cpu_us']:6.2f} µs "
                          f"(stretch {r['stretch_cpu_us']:6.2f})", file=sys.stderr)
                time.sleep(0.3)
# References first, then Switchyard's clients in their given order.
rank = [SSE_RAW, WS_LOOP, WS_ASYNC] + [f"yard {t}" for t in args.transports] + [WS_YARD]
order.sort(key=lambda k: (k[0] != "sse", k[1] or 0, rank.index(k[2]) if k[2] in rank else len(rank)))


def ok(key):
    return [r for r in results.get(key, []) if not r.get("failed")]


def med(key, field):
    vals = [r[field] for r in ok(key)]
    return statistics.median(vals) if vals else None


def f(x, nd=0):
    return "–" if x is None else f"{x:,.{nd}f}"


def ratio_row(label, a, b, field):
    """Median of the per-round ratios (same conditions in a round) and their range."""
    ra, rb = {r["round"]: r[field] for r in ok(a)}, {r["round"]: r[field] for r in ok(b)}
    rounds = sorted(ra[k] / rb[k] for k in ra if k in rb and rb[k])
    if not rounds:
        return f"| {label} | – | – |"
    return f"| {label} | **{statistics.median(rounds):.2f}** | {rounds[0]:.2f}–{rounds[-1]:.2f} |"


if args.replay:  # the counts of the replayed run
    args.events = next((r["count"] for k, rs in results.items() if k[0] == "sse" for r in rs if "count" in r), args.events)
    args.messages = next((r["count"] for k, rs in results.items() if k[0] == "ws" for r in rs if "count" in r), args.messages)
rounds_run = max((r["round"] for rs in results.values() for r in rs), default=0)
print(f"\n{args.events:,} events per SSE cell; {args.messages:,} messages of {args.size} bytes per WebSocket cell "
      f"(+{args.warmup} warm-up round trips); {rounds_run} interleaved rounds, medians. CPU per event/message: "
      "the client process's own rusage (user+sys) at exit, start-up and warm-up included; "
      "'stretch': the process's CPU over the measured stretch only.\n")
print("| client | window | per s | CPU µs (process) | CPU µs (stretch: user+sys) | ctx sw | peak RSS MiB | failed |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for key in order:
    kind, window, name = key
    fails = len(results[key]) - len(ok(key))
    print(f"| {'SSE' if kind == 'sse' else 'WS'} {name} | {window or '–'} | {f(med(key, 'per_s'))} | "
          f"{f(med(key, 'cpu_us'), 2)} | {f(med(key, 'stretch_cpu_us'), 2)} ({f(med(key, 'stretch_user_us'), 2)}+"
          f"{f(med(key, 'stretch_sys_us'), 2)}) | {f(med(key, 'csw'), 2)} | {f(med(key, 'maxrss_mib'), 1)} | {fails} |")

print("\n| ratio (Switchyard ÷ raw) | per-round median | range |\n|---|---:|---:|")
for key in order:
    kind, window, name = key
    if kind == "sse" and name != SSE_RAW:
        base = ("sse", None, SSE_RAW)
        print(ratio_row(f"SSE {name} ÷ {SSE_RAW}, events/s", key, base, "per_s"))
        print(ratio_row(f"SSE {name} ÷ {SSE_RAW}, CPU/event (process)", key, base, "cpu_us"))
        print(ratio_row(f"SSE {name} ÷ {SSE_RAW}, CPU/event (stretch)", key, base, "stretch_cpu_us"))
    if kind == "ws" and name == WS_YARD:
        for ref in (WS_ASYNC, WS_LOOP):
            base = ("ws", window, ref)
            print(ratio_row(f"WS w={window} {name} ÷ {ref}, messages/s", key, base, "per_s"))
            print(ratio_row(f"WS w={window} {name} ÷ {ref}, CPU/message (process)", key, base, "cpu_us"))
            print(ratio_row(f"WS w={window} {name} ÷ {ref}, CPU/message (stretch)", key, base, "stretch_cpu_us"))
