"""Reading ncu's CSV exports in the lab scripts: the rows of a `--csv` export (raw page or the
details page) as dicts, and its numbers with their thousands separators."""
import csv
import io


def rows(path):
    """The data rows of an ncu CSV export, keyed by its header; [] when it has none."""
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.find('"ID","Process ID"')
    if start < 0:
        return []
    table = list(csv.reader(io.StringIO(text[start:])))
    return [dict(zip(table[0], r)) for r in table[1:] if r and r[0].isdigit()]


def num(text):
    """A number as ncu prints it ("1,234.5")."""
    return float(str(text).replace(",", ""))
