"""Reading Nsight Compute's CSV exports (`ncu --csv`), for the comparison and lab scripts: the
raw page (`--page raw`: one row per launch, a column per metric) and the details page (one row
per launch and metric, "Metric Name" and "Metric Value"); the kernel name by which a launch
of ncu's export and one of roofkit's are matched (base_name); and the counter names of a
roofkit record log, to give ncu the same metrics.

Usage as a command: ncu_csv.py metrics RECORDS   prints record_metric_names(RECORDS)"""
import csv
import io
import json
import sys


def rows_of_text(text):
    """The data rows of an export as dicts keyed by its header; None when it has no header. Lines
    around the table (ncu's ==PROF== messages, the application's output, the raw page's units
    row) are left out: a data row starts with the launch ID."""
    start = text.find('"ID","Process ID"')
    if start < 0:
        return None
    table = list(csv.reader(io.StringIO(text[start:])))
    return [dict(zip(table[0], r)) for r in table[1:] if r and r[0].isdigit()]


def rows(path):
    """rows_of_text() of the file at `path`; [] when it has no header."""
    return rows_of_text(open(path, encoding="utf-8", errors="replace").read()) or []


def split_by_gpu(text, out_prefix):
    """A raw-page export of several processes (--target-processes all) split per GPU ("Device"
    column; else per process, in PID order), written as <out_prefix>-rank<R>.csv with R the
    GPU's order; {rank: (path, "Device 0")}. {} when the export has no header."""
    start = text.find('"ID","Process ID"')
    if start < 0:
        return {}
    lines = list(csv.reader(io.StringIO(text[start:])))
    head = lines[0]
    key = "Device" if "Device" in head else "Process ID"
    col = head.index(key)
    groups = {}
    for r in lines[1:]:
        if r and r[0].isdigit():
            groups.setdefault(r[col], []).append(r)
    order = sorted(groups, key=lambda k: float(k) if k.replace(".", "").isdigit() else k)
    out = {}
    for rank, k in enumerate(order):
        path = f"{out_prefix}-rank{rank}.csv"
        with open(path, "w", newline="") as f:
            w = csv.writer(f, quoting=csv.QUOTE_ALL)
            w.writerow(head)
            w.writerows(groups[k])
        out[rank] = (path, f"{key} {k}")
    return out


def num(text):
    """A number as ncu prints it ("1,234.5")."""
    return float(str(text).replace(",", ""))


def launches_of_text(text):
    """A details-page export as one dict per launch, in launch order: "kernel" (its name) and each
    metric with a numeric value."""
    out, order = {}, []
    for r in rows_of_text(text) or []:
        launch = int(r["ID"])
        if launch not in out:
            out[launch] = {"kernel": r["Kernel Name"]}
            order.append(launch)
        try:
            out[launch][r["Metric Name"]] = num(r["Metric Value"])
        except ValueError:
            pass
    return [out[i] for i in order]


def launches(path):
    """launches_of_text() of the file at `path`."""
    return launches_of_text(open(path, encoding="utf-8", errors="replace").read())


def base_name(name):
    """The kernel's own identifier, the same in our demangling and ncu's: no return type, scope,
    template arguments or parameters ('void a::(anonymous namespace)::k<32>(float*)' -> 'k')."""
    text = name.replace("(anonymous namespace)", "anon")
    text = text.split("(")[0]
    out, depth = "", 0
    for ch in text:
        depth += ch == "<"
        if depth == 0:
            out += ch
        depth -= ch == ">" and depth > 0
    return out.split("::")[-1].split(" ")[-1].strip()


def shape(row):
    """The key by which launches of an export are matched, in order, with another's: base name,
    grid and block as ncu prints them ("(2, 64, 1)"), so that two kernels of one base name (cuDNN's
    CUTLASS Kernel<...> of a convolution and of its split-K reduction) are never paired."""
    return (base_name(row["Kernel Name"]), row.get("Grid Size", ""), row.get("Block Size", ""))


def dram_close(a, b):
    """The comparisons' rule for DRAM bytes: within 1% or 64 KiB, whichever is larger."""
    return abs(a - b) <= max(0.01 * max(abs(a), abs(b)), 65536)


def dram_agreement(first, second):
    """Launches (matched in order within each shape()) whose DRAM read and write bytes in `second`
    are dram_close() to `first`'s: how far ncu agrees with itself."""
    by_shape = {}
    for r in rows(first):
        by_shape.setdefault(shape(r), []).append(r)
    seen, agree, matched = {}, 0, 0
    for r in rows(second):
        key = shape(r)
        i = seen.get(key, 0)
        seen[key] = i + 1
        if i >= len(by_shape.get(key, [])):
            continue
        matched += 1
        agree += all(dram_close(num(by_shape[key][i][m]), num(r[m]))
                     for m in ("dram__bytes_read.sum", "dram__bytes_write.sum"))
    return {"matched": matched, "agree": agree}


def ours_dram_agreement(compare):
    """Launches of a profile-compare.py result whose DRAM read and write bytes both pass."""
    agree = 0
    for l in compare.get("launches", []):
        m = l.get("metrics", {})
        dram = [m[k]["ok"] for k in ("dram__bytes_read.sum", "dram__bytes_write.sum") if k in m]
        agree += bool(dram) and all(dram)
    return {"matched": compare.get("launches_matched", 0), "agree": agree}


def record_metric_names(records):
    """The CUPTI names of the counters of the first profiled launch in a roofkit record log,
    comma-separated and sorted ("" when none): the --metrics list that makes ncu collect ours."""
    for line in open(records, encoding="utf-8", errors="replace"):
        try:
            j = json.loads(line)
        except ValueError:
            continue
        if j.get("type") == "launch" and j.get("counters"):
            return ",".join(sorted(k for k in j["counters"] if not k.startswith("roofkit__")))
    return ""


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "metrics":
        sys.exit(__doc__)
    print(record_metric_names(sys.argv[2]))
