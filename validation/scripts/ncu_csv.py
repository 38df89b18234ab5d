"""Reading Nsight Compute's CSV exports (`ncu --csv`), for the comparison and lab scripts: the
raw page (`--page raw`: one row per launch, a column per metric) and the details page (one row
per launch and metric, "Metric Name" and "Metric Value"); and the kernel name by which a launch
of ncu's export and one of roofkit's are matched (base_name)."""
import csv
import io


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
