#!/usr/bin/env python3
"""One-address floods of what an anonymous client can make the server remember.

Starts `veranda serve` (the binary given by --bin) on free loopback ports with the demo site and
a fresh data directory, runs one flood from 127.0.0.1, and prints the server's memory (VmRSS) and
data-directory growth, the answers by status, and the bound gauges and refusal counters /metrics
shows. Every flood is bounded in count and in time and stops by itself; the server is stopped
at the end.

  benches/load/flood.py --bin target/release/veranda perf     # 2,000 posts of 100 records, made-up page loads
  benches/load/flood.py --bin target/release/veranda errors   # 1,500 sends of ten 9 KB error records
  benches/load/flood.py --bin target/release/veranda hits     # 60 s of RecordHit without a visitor cookie
  benches/load/flood.py --spread 100000 hits                    # the same from 100,000 forged addresses

--spread N trusts 127.0.0.1 as a proxy and sends each request as one of N client addresses
(X-Forwarded-For): a botnet's view of the per-address bounds, which leaves only the global ones.

Standard library only. Loopback only.
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from urllib.parse import quote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE_ID = "51ee8ec89a317a31733c9281"
AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
# The metrics shown after a flood: bounds' sizes, refusals, drops.
METRIC_PATTERN = re.compile(
    r"^veranda_(memory_table_entries|rate_limiter_entries|rate_limited_total|telemetry_refused_total|"
    r"telemetry_dropped|telemetry_stored_bytes|visitor|ingest_rejected|telemetry_ingest)"
)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def dir_bytes(path):
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(folder, name))
            except OSError:
                pass
    return total


class Server:
    def __init__(self, binary, config, extra_env):
        self.work = tempfile.mkdtemp(prefix="veranda-flood-")
        self.data = os.path.join(self.work, "data")
        self.port, self.ops_port = free_port(), free_port()
        env = dict(os.environ, **extra_env)
        env.setdefault("RUST_LOG", "warn")
        self.log = open(os.path.join(self.work, "veranda.log"), "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--config", config, "--site", os.path.join(ROOT, "config/sites/demo"), "--data-dir", self.data,
             "--listen", f"127.0.0.1:{self.port}", "--ops-listen", f"127.0.0.1:{self.ops_port}"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if self.ops("/health/ready")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.log.flush()
        with open(self.log.name) as log:
            tail = log.read()[-2000:]
        self.stop()
        sys.exit("veranda did not start:\n" + tail)

    def ops(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.ops_port, timeout=10)
        conn.request("GET", path)
        res = conn.getresponse()
        return res.status, res.read().decode()

    def crumb(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", "/")
        res = conn.getresponse()
        res.read()
        for header, value in res.getheaders():
            if header.lower() == "set-cookie" and value.startswith("crumb="):
                return value.split(";")[0][len("crumb="):]
        return ""

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.work, ignore_errors=True)


def trusting_loopback(config, work):
    """A copy of `config` that trusts 127.0.0.1 as a proxy sending X-Forwarded-For."""
    with open(config) as source:
        text = source.read()
    text = re.sub(r"(?m)^trusted_proxies = .*$", 'trusted_proxies = ["127.0.0.1"]', text)
    if 'trusted_proxies = ["127.0.0.1"]' not in text:
        sys.exit(f"{config}: no trusted_proxies line under [security] to replace")
    copy = os.path.join(work, "veranda.toml")
    with open(copy, "w") as target:
        target.write(text)
    return copy


def spread(requests, addresses):
    """`requests`, each sent as one of `addresses` random client addresses."""
    for method, path, headers, body in requests:
        n = random.randrange(addresses)
        forwarded = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
        yield method, path, dict(headers, **{"X-Forwarded-For": forwarded}), body


def flood(server, requests, workers, budget_secs, pace_rps=None):
    """Sends `requests` (an iterator of (method, path, headers, body)) from `workers` keep-alive
    connections, at most `pace_rps` per second in all, for at most `budget_secs`."""
    statuses = Counter()
    lock = threading.Lock()
    source = iter(requests)
    deadline = time.time() + budget_secs
    gap = workers / pace_rps if pace_rps else 0

    def work():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        while time.time() < deadline:
            with lock:
                request = next(source, None)
            if request is None:
                return
            started = time.time()
            method, path, headers, body = request
            try:
                conn.request(method, path, body=body, headers=headers)
                res = conn.getresponse()
                res.read()
                status = res.status
            except (OSError, http.client.HTTPException):
                status = "error"
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            with lock:
                statuses[status] += 1
            if gap:
                time.sleep(max(0.0, gap - (time.time() - started)))

    threads = [threading.Thread(target=work, daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.time()) + 15)
    return statuses


def token(n):
    return "".join(random.choices(string.ascii_letters + string.digits, k=n))


def perf_requests(count, records):
    vitals = [("LCP", 1840.5), ("FCP", 912.3), ("TTFB", 143.0), ("CLS", 0.04)]
    for n in range(count):
        body = []
        for r in range(records):
            name, value = vitals[r % len(vitals)]
            body.append({"pageLoadId": f"made-up-{n}-{r}-{token(8)}", "name": name, "value": value,
                         "rating": "good", "delta": value, "id": f"v4-{n}-{r}", "navigationType": "navigate",
                         "pagePath": "/about", "websiteId": SITE_ID})
        yield ("POST", "/api/1/performance/records", {"Content-Type": "text/plain;charset=UTF-8"},
               json.dumps(body))


def error_requests(count, crumb):
    for n in range(count):
        page_load = f"flood-{n}-{token(12)}"
        records = [{"event": "javascript-error", "timestamp": int(time.time() * 1000), "count": 1,
                    "data": {"websiteId": SITE_ID, "url": "http://127.0.0.1/cart", "userAgent": AGENT,
                             "app": "loader", "message": "Flood " + token(16), "stack": token(9000),
                             "file": "http://127.0.0.1/assets/loader.js", "line": 412, "column": 17,
                             "pageLoadId": page_load}}
                   for _ in range(10)]
        headers = {"Content-Type": "application/json", "User-Agent": AGENT, "Cookie": f"crumb={crumb}",
                   "X-CSRF-Token": crumb}
        yield ("POST", "/api/events/RecordJavascriptErrors", headers, json.dumps(records))


def hit_requests():
    pages = [("/about", "About"), ("/contact", "Contact"), ("/", "Home")]
    n = 0
    while True:
        n += 1
        url, title = pages[n % len(pages)]
        data = {"userAgent": AGENT, "clientDate": int(time.time() * 1000), "viewportInnerWidth": 1280,
                "viewportInnerHeight": 720, "screenWidth": 1920, "screenHeight": 1080, "websiteId": SITE_ID,
                "templateId": None, "website_locale": "en-US", "url": url, "title": title,
                "collectionId": None, "recordType": None, "queryString": "", "referrer": "",
                "localStorageSupported": True}
        body = "event=view&data=" + quote(json.dumps(data))
        headers = {"Content-Type": "application/x-www-form-urlencoded", "User-Agent": AGENT,
                   "Cookie": "ss_cookieAllowed=true"}
        yield ("POST", "/api/census/RecordHit", headers, body)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/release/veranda"))
    parser.add_argument("--config", default=os.path.join(ROOT, "config/veranda.toml"))
    parser.add_argument("flood", choices=["perf", "errors", "hits"])
    parser.add_argument("--spread", type=int, default=0, help="client addresses forged through a trusted proxy")
    parser.add_argument("--env", action="append", default=[], metavar="VERANDA_X=VALUE",
                        help="a setting for the server, e.g. VERANDA_TELEMETRY='{visitor_sessions = 20000}'")
    parser.add_argument("--settle", type=float, default=12.0, help="seconds waited before the 'after' reading")
    args = parser.parse_args()
    # The hits flood runs under the default rate limit; the other two pace themselves under it
    # as the attack described in the issue did.
    config = args.config
    if args.spread:
        config = trusting_loopback(config, tempfile.mkdtemp(prefix="veranda-flood-config-"))
    server = Server(args.bin, config, dict(pair.split("=", 1) for pair in args.env))
    try:
        time.sleep(1)
        rss0, disk0 = rss_kib(server.process.pid), dir_bytes(server.data)
        started = time.time()
        if args.flood == "perf":
            requests, workers, budget, pace = perf_requests(2000, 100), 8, 120, 90
        elif args.flood == "errors":
            requests, workers, budget, pace = error_requests(1500, server.crumb()), 8, 120, 90
        else:
            requests, workers, budget, pace = hit_requests(), 64, 60, None
        if args.spread:
            requests, pace = spread(requests, args.spread), None
        statuses = flood(server, requests, workers=workers, budget_secs=budget, pace_rps=pace)
        elapsed = time.time() - started
        peak = rss_kib(server.process.pid)
        time.sleep(args.settle)
        rss1, disk1 = rss_kib(server.process.pid), dir_bytes(server.data)
        metrics = [line for line in server.ops("/metrics")[1].splitlines() if METRIC_PATTERN.match(line)]
    finally:
        server.stop()
    print(f"flood: {args.flood}  binary: {args.bin}  addresses: {args.spread or 1}  settings: {args.env or 'defaults'}")
    print(f"requests: {sum(statuses.values())} in {elapsed:.1f} s  answers: {dict(sorted(statuses.items(), key=str))}")
    print(f"rss: {rss0 / 1024:.1f} MiB -> {peak / 1024:.1f} MiB at the end of the flood, "
          f"{rss1 / 1024:.1f} MiB {args.settle:.0f} s later (growth {(peak - rss0) / 1024:+.1f} MiB)")
    print(f"data dir: {disk0 / 2**20:.1f} MiB -> {disk1 / 2**20:.1f} MiB (growth {(disk1 - disk0) / 2**20:+.1f} MiB)")
    for line in metrics:
        print("  " + line)


if __name__ == "__main__":
    main()
