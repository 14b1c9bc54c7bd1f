#!/usr/bin/env python3
"""The timing-harness targets as ratios, from one run of Benchmarks/compare.sh (its WORKDIR)."""
import re
import statistics
import sys
from pathlib import Path

raw = Path(sys.argv[1]) / "results" / "raw"
runs = {}
for out in sorted(raw.glob("*.out")):
    name, _ = out.stem.rsplit(".", 1)
    m = re.search(r"^RESULT (.*)$", out.read_text(errors="replace"), re.M)
    if m:
        fields = dict(kv.split("=", 1) for kv in m.group(1).split())
        runs.setdefault(name, []).append({k: float(fields[k]) for k in ("rps", "mb_s") if k in fields})


def median(name, key):
    values = [r[key] for r in runs.get(name, []) if key in r]
    return statistics.median(values) if values else None


rows = []
def ratio(label, mine, reference, key, target):
    a, b = median(mine, key), median(reference, key)
    if a is None or b is None or b == 0:
        rows.append((label, "–", "–", "–", f"≥ {target}", "not measured"))
        return
    r = a / b
    rows.append((label, f"{a:,.0f}", f"{b:,.0f}", f"{r:.2f}", f"≥ {target}", "met" if r >= target else "gap"))


for c in (1, 16, 64):
    ratio(f"CurlTransport bare ÷ C libcurl, small, c={c} (req/s)", f"yardcurl_small_c{c}", f"curl_small_c{c}", "rps", 0.9)
ratio("CurlTransport bare ÷ C libcurl, 1 MiB, c=1 (MB/s)", "yardcurl_1m_c1", "curl_1m_c1", "mb_s", 0.9)
ratio("default chain ÷ bare, curl, small, c=64 (req/s)", "yardcurldefault_small_c64", "yardcurl_small_c64", "rps", 0.95)
for c in (1, 64):
    ratio(f"URLSessionTransport ÷ URLSession, small, c={c}", f"yardurlsession_small_c{c}", f"urlsession_small_c{c}", "rps", 0.9)
ratio("URLSessionTransport ÷ URLSession, 1 MiB, c=1 (MB/s)", "yardurlsession_1m_c1", "urlsession_1m_c1", "mb_s", 0.9)
for c in (1, 16, 64):
    ratio(f"AsyncHTTPClientTransport ÷ AsyncHTTPClient, small, c={c}", f"yardahc_small_c{c}", f"ahc_small_c{c}", "rps", 0.9)
ratio("AsyncHTTPClientTransport ÷ AsyncHTTPClient, 1 MiB, c=1 (MB/s)", "yardahc_1m_c1", "ahc_1m_c1", "mb_s", 0.9)

print("\n| target | Switchyard | reference | ratio | goal | |\n|---|---:|---:|---:|---:|---|")
for row in rows:
    print("| " + " | ".join(row) + " |")
