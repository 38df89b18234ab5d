"""The JSON lines that the validation applications print (validation/apps: one object per rank,
among their other output), for the report and lab scripts."""
import json


def json_lines(text, field="rank"):
    """The lines of `text` that are JSON objects naming `field`, parsed, in rank order."""
    found = []
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("{") and f'"{field}"' in line:
            try:
                found.append(json.loads(line))
            except ValueError:
                pass
    return sorted(found, key=lambda j: j["rank"])
