#!/usr/bin/env python3
# Turns the raw lines of colo.sh and colo2.sh ("colo,SET,[FILE,]{json}") into the co-location
# measurement layout that `slicewise calibrate` reads (docs/measurement-format.md):
#   python3 calibration/probes/colo_to_csv.py colo.csv colo2.csv --gpu "NVIDIA H200" --date 2026-11-28 > colocation.csv
# SET names the run: alone_KIND (one process alone), ts_* (time-sliced), mps_* (under MPS). A
# colo2.sh FILE field carries the process's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE (colo_SET_KIND_PCT_N.json).
# Plain Python 3. Exits 1, naming the line, on anything it cannot read.
import argparse
import json
import re
import sys

NAME = re.compile(r"^[A-Za-z0-9_.-]+$")

# Each kind's GEMM (llm_bench.py loop): rows M of the activations times the 4096 x 425984 bf16
# weights. Per iteration it does 2 M K N flops and moves the weights, the activations and the result.
K, N, BYTES = 4096, 425984, 2
ROWS = {"decode": 1, "decode32": 32, "prefill512": 512, "prefill": 4096}


def work(kind):
    """(flops, bytes) of one iteration of a kind's loop."""
    m = ROWS[kind]
    return 2.0 * m * K * N, BYTES * (K * N + m * K + m * N)


def demands(solo):
    """compute_frac and mem_bw_frac of each kind alone: its flop and byte rates over the highest
    any kind reaches on this GPU (the compute-bound prefill's and the memory-bound decode's)."""
    rates = {kind: tuple(w * iters for w in work(kind)) for kind, iters in solo.items() if kind in ROWS}
    if not rates:
        return {}
    peak_flops = max(f for f, _ in rates.values())
    peak_bytes = max(b for _, b in rates.values())
    return {kind: (f / peak_flops, b / peak_bytes) for kind, (f, b) in rates.items()}


def fail(where, what):
    sys.exit("%s: %s" % (where, what))


def read(paths):
    """(set, kind, thread_pct, iters_per_s) per process, in file order."""
    rows = []
    for path in paths:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                where = "%s:%d" % (path, number)
                parts = line.split(",", 2)
                if len(parts) < 3 or parts[0] != "colo":
                    fail(where, "expected colo,SET,[FILE,]{json}")
                name, rest = parts[1], parts[2]
                pct = 100.0
                if not rest.startswith("{"):
                    file, _, rest = rest.partition(",")
                    m = re.match(r"colo_.*_(\d+)_\d+\.json$", file)
                    if not m:
                        fail(where, "cannot read the thread percentage from %r" % file)
                    pct = float(m.group(1))
                try:
                    record = json.loads(rest)
                    kind, iters = record["kind"], float(record["iters_per_s"])
                except (ValueError, KeyError, TypeError) as e:
                    fail(where, "expected a JSON object with kind and iters_per_s (%s)" % e)
                for what, value in (("set", name), ("kind", kind)):
                    if not isinstance(value, str) or not NAME.match(value):
                        fail(where, "%s %r is not a name (letters, digits, _ - . only)" % (what, value))
                rows.append((name, kind, pct, iters))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--gpu", required=True, help="the GPU's name (nvidia-smi --query-gpu=name)")
    parser.add_argument("--date", required=True, help="YYYY-MM-DD")
    args = parser.parse_args()
    rows = read(args.files)
    solo = {kind: iters for name, kind, _, iters in rows if name == "alone_" + kind}
    size = {}
    for name, *_ in rows:
        size[name] = size.get(name, 0) + 1
    print("# gpu: %s" % args.gpu)
    print("# date: %s" % args.date)
    print("# Co-location runs of calibration/probes/colo.sh and colo2.sh, converted by colo_to_csv.py.")
    print("# compute_frac, mem_bw_frac: each kind's flop and byte rates alone over the highest any kind reaches "
          "(from the GEMM shapes in colo_to_csv.py)")
    print("set,mechanism,n_processes,kind,thread_pct,iters_per_s,solo_iters_per_s,relative_speed,compute_frac,"
          "mem_bw_frac")
    demand = demands(solo)
    for name, kind, pct, iters in rows:
        if kind not in solo:
            sys.exit("%s: no alone_%s run to be its baseline" % (name, kind))
        mechanism = ("dedicated" if name.startswith("alone_") else "time_slicing" if name.startswith("ts_")
                     else "mps" if name.startswith("mps_") else None)
        if mechanism is None:
            sys.exit("%s: a set is alone_*, ts_* or mps_*" % name)
        sm, bw = ("%.4g" % demand[kind][0], "%.4g" % demand[kind][1]) if kind in demand else ("", "")
        print("%s,%s,%d,%s,%g,%.2f,%.2f,%.3f,%s,%s" % (name, mechanism, size[name], kind, pct, iters, solo[kind],
                                                       iters / solo[kind], sm, bw))


if __name__ == "__main__":
    main()
