"""Input-to-chart-update latency of the explorers, in Chromium (a benchmark, not a test).

For each explorer named, builds a sandbox copy of the project with one page holding ``::chart[NAME]``
(or uses ``--site``/``--page``), opens it in Debian's Chromium and moves its controls round-robin, one
step at a time (a select to its next option, a radio group to its next radio, a range or number input
one step, bouncing at its ends, a checkbox toggled, a button clicked). Each move is timed in the page
with ``performance.now()`` from just before the control's ``input``/``change``/``click`` event is
dispatched until Plotly's ``plotly_afterplot`` fires on the explorer's plot. A few warm-up moves are not
counted. Prints the median and p95 (nearest rank) over ``--moves`` moves (default 50) and the JavaScript
bytes the page loaded.

    .venv/bin/python scripts/bench_explorers.py amdahl
    .venv/bin/python scripts/bench_explorers.py amdahl --controls '#amdahl-variant' \\
        "input[name='amdahl-length']" '#amdahl-tokens'
    .venv/bin/python scripts/bench_explorers.py amdahl step_mask --cpu 4   # 4x CPU slowdown

Without ``--controls`` every select, radio group, range, number input, checkbox and button with an id inside
``#chart-NAME`` is moved.
``--cpu-time`` adds the main thread's CPU time per move (from a Chromium trace: the top-level tasks from the
event's dispatch to plotly_afterplot, so work left to microtasks or later tasks counts too), which other
processes competing for the CPU inflate much less than the wall time.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import math
import platform
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared"
sys.path.insert(0, str(PROJECT))

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

DISCOVER_JS = """(name) => {
  const holder = document.getElementById('chart-' + name);
  const out = [];
  const radios = new Set();
  holder.querySelectorAll('select, input, button[id]').forEach((e) => {
    if (e.tagName === 'BUTTON') {
      out.push('#' + CSS.escape(e.id));
    } else if (e.type === 'radio') {
      if (!radios.has(e.name)) { radios.add(e.name); out.push(`input[type=radio][name="${e.name}"]`); }
    } else if (['select-one', 'range', 'number', 'checkbox'].includes(e.type)) {
      if (!e.id) throw new Error('a control without an id in #chart-' + name);
      out.push('#' + CSS.escape(e.id));
    }
  });
  return out;
}"""

MEASURE_JS = """async ({name, selectors, moves, warmup}) => {
  const holder = document.getElementById('chart-' + name);
  const gd = holder.querySelector('.js-plotly-plot');
  if (!gd) throw new Error('no Plotly plot in #chart-' + name);
  const groups = selectors.map((s) => {
    const els = [...document.querySelectorAll(s)];
    if (!els.length) throw new Error('no control matches ' + s);
    return els;
  });
  const dir = new Map();
  function move(els) {
    const e = els[0];
    if (e.tagName === 'SELECT') { e.selectedIndex = (e.selectedIndex + 1) % e.options.length; return [e, 'change']; }
    if (e.type === 'radio') {
      const i = els.findIndex((r) => r.checked);
      const next = els[(i + 1) % els.length];
      next.checked = true;
      return [next, 'change'];
    }
    if (e.type === 'checkbox') { e.checked = !e.checked; return [e, 'change']; }
    if (e.type === 'range' || e.type === 'number') {
      let d = dir.get(e) || 1;
      const before = e.value;
      if (d > 0) e.stepUp(); else e.stepDown();
      if (e.value === before) { d = -d; if (d > 0) e.stepUp(); else e.stepDown(); }
      dir.set(e, d);
      return [e, 'input'];
    }
    if (e.tagName === 'BUTTON') return [e, 'click'];
    throw new Error('cannot move ' + e.outerHTML.slice(0, 80));
  }
  const times = [];
  const byControl = selectors.map(() => []);
  let missed = 0;
  for (let i = 0; i < warmup + moves; i++) {
    const k = i % groups.length;
    const [target, type] = move(groups[k]);
    const t = await new Promise((resolve) => {
      let t0 = 0;
      const timer = setTimeout(() => { gd.removeListener('plotly_afterplot', done); resolve(null); }, 5000);
      function done() { const dt = performance.now() - t0; clearTimeout(timer); performance.mark('bench-afterplot');
                        gd.removeListener('plotly_afterplot', done); resolve(dt); }
      gd.on('plotly_afterplot', done);
      t0 = performance.now();
      if (type === 'click') target.click(); else target.dispatchEvent(new Event(type, {bubbles: true}));
    });
    if (i >= warmup) { if (t === null) missed++; else { times.push(t); byControl[k].push(t); } }
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  }
  return {times, missed, byControl};
}"""

JS_BYTES_JS = """() => performance.getEntriesByType('resource')
  .filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'))
  .reduce((n, e) => n + e.decodedBodySize, 0)"""


def build_sandbox(names: list[str], root: Path) -> Path:
    from site_builder.build import Options, build

    project = root / "project"
    for d in ("content", "templates", "data"):
        shutil.copytree(PROJECT / d, project / d)
    for name in names:
        page = project / "content" / f"bench-{name}" / "index.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"---\ntitle: Bench {name}\n---\n\n::chart[{name}]\n", encoding="utf-8")
    out = root / "site"
    opts = Options(
        project=project, out=out, vendor=SHARED / "vendor", reference=SHARED / "reference", cache=PROJECT / ".cache"
    )
    build(opts, log=lambda _: None)
    return out


def move_cpu_ms(trace: bytes, moves: int) -> list[float]:
    """Main-thread (CPU) time of each of the last ``moves`` moves in a Chromium trace, in ms.

    A move's time is the thread time of the top-level tasks from the one that dispatched the control's
    input/change/click event to the one in which ``plotly_afterplot`` fired (marked ``bench-afterplot`` by the
    page): the event's handlers (the port, Plotly.react), and also what runs after them in microtasks and in
    later tasks before the plot is drawn (Charts.update's fast path draws in microtasks). Other processes' load
    inflates wall time much more than this.
    """
    events = json.loads(trace)["traceEvents"]
    dispatches = sorted(
        (
            e
            for e in events
            if e.get("name") == "EventDispatch"
            and e.get("args", {}).get("data", {}).get("type") in ("input", "change", "click")
            and "tdur" in e
        ),
        key=lambda e: e["ts"],
    )[-moves:]
    if not dispatches:
        return []
    pid, tid = dispatches[0]["pid"], dispatches[0]["tid"]
    marks = sorted(e["ts"] for e in events if e.get("name") == "bench-afterplot")
    tasks = [
        e
        for e in events
        if e.get("name") == "ThreadControllerImpl::RunTask"
        and e.get("pid") == pid
        and e.get("tid") == tid
        and "tdur" in e
        and "dur" in e
    ]
    out = []
    for d in dispatches:
        end = next((m for m in marks if m >= d["ts"]), None)
        if end is None:  # no redraw
            continue
        out.append(sum(t["tdur"] for t in tasks if t["ts"] + t["dur"] > d["ts"] and t["ts"] <= end) / 1000)
    return out


def nearest_rank(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="+", help="explorer names (site_builder/explorers/)")
    ap.add_argument("--controls", nargs="+", help="CSS selectors of the controls to move (one explorer only)")
    ap.add_argument("--moves", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--cpu", type=float, default=1.0, help="CPU slowdown factor (Chromium's throttling)")
    ap.add_argument("--site", type=Path, help="a built site to use instead of building a sandbox")
    ap.add_argument("--page", help="with --site: the page (path below the site) holding the explorer")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument(
        "--cpu-time",
        action="store_true",
        help="also report the main thread's CPU time per move, from a Chromium trace (thread time of the tasks "
        "from the event's dispatch to plotly_afterplot): less sensitive than wall time to other processes "
        "competing for the CPU",
    )
    args = ap.parse_args()
    if args.controls and len(args.names) != 1:
        ap.error("--controls takes one explorer name")
    if args.site and not args.page:
        ap.error("--site needs --page")

    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-explorers-"))
    try:
        site = args.site or build_sandbox(args.names, tmp)

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, format: str, *a: object) -> None:
                pass

        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{srv.server_address[1]}/"
        results = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for name in args.names:
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                page.on("console", lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None)
                if args.cpu != 1.0:
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                page.goto(base + (args.page if args.site else f"bench-{name}/"))
                page.wait_for_selector(f"#chart-{name}[data-ready='true']", timeout=60_000)
                selectors = args.controls or page.evaluate(DISCOVER_JS, name)
                if args.cpu_time:
                    browser.start_tracing(page=page, categories=["devtools.timeline", "toplevel", "blink.user_timing"])
                r = page.evaluate(
                    MEASURE_JS, {"name": name, "selectors": selectors, "moves": args.moves, "warmup": args.warmup}
                )
                cpu_ms = move_cpu_ms(browser.stop_tracing(), args.moves) if args.cpu_time else []
                js_bytes = page.evaluate(JS_BYTES_JS)
                page.close()
                times = r["times"]
                results.append(
                    {
                        "explorer": name,
                        "controls": selectors,
                        "moves": len(times),
                        "no_redraw": r["missed"],
                        "median_ms": statistics.median(times) if times else None,
                        "p95_ms": nearest_rank(times, 0.95) if times else None,
                        "max_ms": max(times) if times else None,
                        "median_ms_by_control": {
                            s: statistics.median(t) if t else None
                            for s, t in zip(selectors, r["byControl"], strict=True)
                        },
                        "cpu_median_ms": statistics.median(cpu_ms) if cpu_ms else None,
                        "cpu_p95_ms": nearest_rank(cpu_ms, 0.95) if cpu_ms else None,
                        "js_bytes": js_bytes,
                        "cpu_slowdown": args.cpu,
                        "errors": errors,
                    }
                )
            browser.close()
        srv.shutdown()
        srv.server_close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    for r in results:
        head = f"{r['explorer']}: {r['moves']} moves over {len(r['controls'])} controls"
        if r["cpu_slowdown"] != 1.0:
            head += f" at {r['cpu_slowdown']:g}x CPU slowdown"
        print(head)
        if r["moves"]:
            print(
                f"  input to plotly_afterplot: median {r['median_ms']:.2f} ms, p95 {r['p95_ms']:.2f} ms, max {r['max_ms']:.2f} ms"
            )
        if r["cpu_median_ms"] is not None:
            print(f"  main-thread CPU per move: median {r['cpu_median_ms']:.2f} ms, p95 {r['cpu_p95_ms']:.2f} ms")
        for sel, med in r["median_ms_by_control"].items():
            if med is not None:
                print(f"    {sel}: median {med:.2f} ms")
        if r["no_redraw"]:
            print(f"  {r['no_redraw']} moves redrew nothing within 5 s")
        print(f"  JavaScript loaded by the page: {r['js_bytes']:,} bytes")
        for e in r["errors"]:
            print(f"  error: {e}")


if __name__ == "__main__":
    main()
