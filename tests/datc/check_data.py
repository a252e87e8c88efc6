#!/usr/bin/env python3
"""Check the DATC test data in tests/datc/data/ against the format in tests/datc/README.md.

Pure standard library; it does not import fogdip. Run it from anywhere:

    python3 tests/datc/check_data.py

It checks the schema of every case strictly, checks that expectations refer to orders that
were actually given and that every move-like order (move, retreat, build, disband) has an
expectation, prints the number of cases per section and per edition, and confirms that every
case of DATC v3.1 chapter 6 (6.A.1 ... 6.J.11) is present for both rule editions.
Exit status 0 when clean, 1 otherwise.
"""

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"

# Number of cases in each section of chapter 6 of DATC v3.1 (164 in total).
SECTION_SIZES = {
    "A": 12,
    "B": 15,
    "C": 9,
    "D": 34,
    "E": 15,
    "F": 25,
    "G": 20,
    "H": 16,
    "I": 7,
    "J": 11,
}
EDITIONS = ("2000", "2023")
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
OUTCOMES = ("ok", "fails", "illegal", None)

# The 75 provinces of the standard map plus Switzerland (impassable), and the split coasts.
PROVINCES = frozenset(
    [
        "ADR",
        "AEG",
        "ALB",
        "ANK",
        "APU",
        "ARM",
        "BAL",
        "BAR",
        "BEL",
        "BER",
        "BLA",
        "BOH",
        "BOT",
        "BRE",
        "BUD",
        "BUL",
        "BUR",
        "CLY",
        "CON",
        "DEN",
        "EAS",
        "EDI",
        "ENG",
        "FIN",
        "GAL",
        "GAS",
        "GRE",
        "HEL",
        "HOL",
        "ION",
        "IRI",
        "KIE",
        "LON",
        "LVN",
        "LVP",
        "LYO",
        "MAO",
        "MAR",
        "MOS",
        "MUN",
        "NAF",
        "NAO",
        "NAP",
        "NTH",
        "NWG",
        "NWY",
        "PAR",
        "PIC",
        "PIE",
        "POR",
        "PRU",
        "ROM",
        "RUH",
        "RUM",
        "SER",
        "SEV",
        "SIL",
        "SKA",
        "SMY",
        "SPA",
        "STP",
        "SWE",
        "SWI",
        "SYR",
        "TRI",
        "TUN",
        "TUS",
        "TYR",
        "TYS",
        "UKR",
        "VEN",
        "VIE",
        "WAL",
        "WAR",
        "WES",
        "YOR",
    ]
)
COASTS = {"BUL": ("EC", "SC"), "SPA": ("NC", "SC"), "STP": ("NC", "SC")}
SUPPLY_CENTERS = frozenset(
    [
        "ANK",
        "BEL",
        "BER",
        "BRE",
        "BUD",
        "BUL",
        "CON",
        "DEN",
        "EDI",
        "GRE",
        "HOL",
        "KIE",
        "LON",
        "LVP",
        "MAR",
        "MOS",
        "MUN",
        "NAP",
        "NWY",
        "PAR",
        "POR",
        "ROM",
        "RUM",
        "SER",
        "SEV",
        "SMY",
        "SPA",
        "STP",
        "SWE",
        "TRI",
        "TUN",
        "VEN",
        "VIE",
        "WAR",
    ]
)

CASE_KEYS_REQUIRED = {"id", "title", "editions", "steps"}
CASE_KEYS_OPTIONAL = {"note", "centers"}
STEP_KEYS = {"phase", "units", "orders", "expect"}
EXPECT_KEYS = {"orders", "dislodged", "units_after"}

ID_RE = re.compile(r"^6\.([A-J])\.([1-9][0-9]?)$")
PHASE_RE = re.compile(r"^([SF])(\d{4})([MR])$|^W(\d{4})A$")

LOC = r"[A-Z]{3}(?:/[A-Z]{2})?"
UNIT = rf"[AF] {LOC}"
ORDER_FORMS = [
    ("hold", re.compile(rf"^(?P<unit>{UNIT}) H$")),
    ("move", re.compile(rf"^(?P<unit>{UNIT}) - (?P<dst>{LOC})(?P<via> VIA)?$")),
    ("support_move", re.compile(rf"^(?P<unit>{UNIT}) S (?:[AF] )?(?P<src>{LOC}) - (?P<dst>{LOC})$")),
    ("support_hold", re.compile(rf"^(?P<unit>{UNIT}) S (?:[AF] )?(?P<src>{LOC})$")),
    ("convoy", re.compile(rf"^(?P<unit>{UNIT}) C (?:[AF] )?(?P<src>{LOC}) - (?P<dst>{LOC})$")),
    ("retreat", re.compile(rf"^(?P<unit>{UNIT}) R (?P<dst>{LOC})$")),
    ("disband", re.compile(rf"^(?P<unit>{UNIT}) D$")),
    ("build", re.compile(rf"^(?P<unit>{UNIT}) B$")),
    ("waive", re.compile(r"^WAIVE$")),
]
MOVE_LIKE = {"move", "retreat", "disband", "build"}


class Checker:
    def __init__(self):
        self.errors = []

    def err(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    # -- small helpers -------------------------------------------------------------------
    def check_loc(self, where, loc):
        prov, _, coast = loc.partition("/")
        if prov not in PROVINCES:
            self.err(where, f"unknown province {prov!r} in {loc!r}")
        elif coast and coast not in COASTS.get(prov, ()):
            self.err(where, f"unknown coast {loc!r}")

    def check_unit(self, where, unit, in_order=False):
        m = re.fullmatch(UNIT, unit) if isinstance(unit, str) else None
        if not m:
            self.err(where, f"bad unit {unit!r}")
            return None
        kind, loc = unit.split()
        self.check_loc(where, loc)
        # An order may name an army with a coast (the DATC has such odd orders);
        # a position may not.
        if kind == "A" and "/" in loc and not in_order:
            self.err(where, f"army with a coast {unit!r}")
        return loc.partition("/")[0]

    def check_position(self, where, position, what):
        if not isinstance(position, dict):
            self.err(where, f"{what} must be an object")
            return set()
        occupied = {}
        units = set()
        for power, lst in position.items():
            if power not in POWERS:
                self.err(where, f"{what}: unknown power {power!r}")
            if not isinstance(lst, list):
                self.err(where, f"{what}[{power}] must be a list")
                continue
            for unit in lst:
                prov = self.check_unit(f"{where} {what}[{power}]", unit)
                if prov is None:
                    continue
                if prov in occupied:
                    self.err(where, f"{what}: two units in {prov} ({occupied[prov]}, {unit})")
                occupied[prov] = unit
                units.add(unit)
        return units

    def parse_order(self, where, order):
        if not isinstance(order, str):
            self.err(where, f"order is not a string: {order!r}")
            return None
        for kind, rx in ORDER_FORMS:
            m = rx.match(order)
            if m:
                for key, value in m.groupdict().items():
                    if value and key == "unit":
                        self.check_unit(where, value, in_order=True)
                    elif value and key in ("src", "dst"):
                        self.check_loc(where, value)
                return kind
        self.err(where, f"order not in fogdip notation: {order!r}")
        return None

    # -- case and step checks --------------------------------------------------------------
    def check_case(self, fname, idx, case):
        where = f"{fname}[{idx}]"
        if not isinstance(case, dict):
            self.err(where, "case must be an object")
            return None
        keys = set(case)
        for k in CASE_KEYS_REQUIRED - keys:
            self.err(where, f"missing key {k!r}")
        for k in keys - CASE_KEYS_REQUIRED - CASE_KEYS_OPTIONAL:
            self.err(where, f"unknown key {k!r}")
        cid = case.get("id")
        if not isinstance(cid, str) or not ID_RE.match(cid):
            self.err(where, f"bad id {cid!r}")
            return None
        where = f"{fname} {cid}"
        if f"6{cid[2]}.json" != fname:
            self.err(where, "case is in the wrong file")
        if not isinstance(case.get("title"), str) or not case["title"].strip():
            self.err(where, "title must be a non-empty string")
        eds = case.get("editions")
        if not isinstance(eds, list) or not eds or len(set(eds)) != len(eds) or any(e not in EDITIONS for e in eds):
            self.err(where, f"bad editions {eds!r}")
            eds = []
        if "note" in case and (not isinstance(case["note"], str) or not case["note"].strip()):
            self.err(where, "note must be a non-empty string")
        if "centers" in case:
            self.check_centers(where, case["centers"])
        steps = case.get("steps")
        if not isinstance(steps, list) or not steps:
            self.err(where, "steps must be a non-empty list")
            return cid, eds, case.get("title"), "note" in case
        for n, step in enumerate(steps):
            self.check_step(f"{where} step {n}", step, n, steps)
        return cid, eds, case.get("title"), "note" in case

    def check_centers(self, where, centers):
        if not isinstance(centers, dict):
            self.err(where, "centers must be an object")
            return
        seen = {}
        for power, lst in centers.items():
            if power not in POWERS:
                self.err(where, f"centers: unknown power {power!r}")
            if not isinstance(lst, list):
                self.err(where, f"centers[{power}] must be a list")
                continue
            for sc in lst:
                if sc not in SUPPLY_CENTERS:
                    self.err(where, f"centers[{power}]: {sc!r} is not a supply centre")
                if sc in seen:
                    self.err(where, f"centers: {sc} owned by both {seen[sc]} and {power}")
                seen[sc] = power

    def check_step(self, where, step, n, steps):
        if not isinstance(step, dict):
            self.err(where, "step must be an object")
            return
        keys = set(step)
        for k in keys - STEP_KEYS:
            self.err(where, f"unknown key {k!r}")
        for k in ("phase", "orders", "expect"):
            if k not in step:
                self.err(where, f"missing key {k!r}")
        if n == 0 and "units" not in step:
            self.err(where, "the first step must carry units")
        if n > 0 and "units" in step:
            self.err(where, "only the first step carries units")
        phase = step.get("phase")
        m = PHASE_RE.match(phase) if isinstance(phase, str) else None
        if not m:
            self.err(where, f"bad phase {phase!r}")
            kind = None
        else:
            kind = "A" if phase.startswith("W") else m.group(3)
        if n > 0 and kind == "M":
            prev = steps[n - 1].get("phase", "")
            if isinstance(prev, str) and prev.endswith("M"):
                self.err(where, "two movement steps in a row")
        if kind == "R" and (n == 0 or not str(steps[n - 1].get("phase", "")).endswith("M")):
            self.err(where, "a retreat step must follow a movement step")

        start_units = set()
        if "units" in step:
            start_units = self.check_position(where, step["units"], "units")

        orders = step.get("orders", {})
        given = Counter()
        kinds = {}
        if not isinstance(orders, dict):
            self.err(where, "orders must be an object")
            orders = {}
        for power, lst in orders.items():
            if power not in POWERS:
                self.err(where, f"orders: unknown power {power!r}")
            if not isinstance(lst, list):
                self.err(where, f"orders[{power}] must be a list")
                continue
            for order in lst:
                k = self.parse_order(f"{where} orders[{power}]", order)
                if k is None:
                    continue
                given[order] += 1
                kinds[order] = k
                if kind == "M" and k in ("retreat", "disband", "build", "waive"):
                    self.err(where, f"{order!r} is not a movement-phase order form")
                if kind == "A" and k not in ("build", "disband", "waive"):
                    self.err(where, f"{order!r} is not an adjustment order form")

        expect = step.get("expect")
        if not isinstance(expect, dict):
            self.err(where, "expect must be an object")
            return
        for k in set(expect) - EXPECT_KEYS:
            self.err(where, f"expect: unknown key {k!r}")
        exp_orders = expect.get("orders")
        if not isinstance(exp_orders, dict):
            self.err(where, "expect.orders must be an object")
            exp_orders = {}
        for order, outcome in exp_orders.items():
            if outcome not in OUTCOMES:
                self.err(where, f"expect.orders[{order!r}]: bad outcome {outcome!r}")
            if order not in given:
                self.err(where, f"expect.orders names an order that was not given: {order!r}")
        for order, k in kinds.items():
            if k not in MOVE_LIKE:
                continue
            if order not in exp_orders:
                self.err(where, f"no expectation for {order!r}")
            elif exp_orders[order] is None and given[order] < 2:
                # null is only acceptable where one order text stands for several orders
                self.err(where, f"expectation for {order!r} must be ok/fails/illegal")

        if kind == "M":
            disl = expect.get("dislodged")
            if not isinstance(disl, list):
                self.err(where, "a movement step needs expect.dislodged (a list)")
            else:
                for unit in disl:
                    self.check_unit(f"{where} dislodged", unit)
                    if n == 0 and unit not in start_units:
                        self.err(where, f"dislodged unit {unit!r} is not in the position")
                if len(set(disl)) != len(disl):
                    self.err(where, "dislodged lists a unit twice")
        elif "dislodged" in expect:
            self.err(where, "expect.dislodged only belongs to movement steps")
        if kind in ("R", "A") and "units_after" not in expect:
            self.err(where, "retreat and adjustment steps need expect.units_after")
        if "units_after" in expect:
            self.check_position(where, expect["units_after"], "units_after")


def main():
    chk = Checker()
    files = sorted(DATA_DIR.glob("*.json"))
    expected_files = [f"6{s}.json" for s in SECTION_SIZES]
    names = [f.name for f in files]
    for name in expected_files:
        if name not in names:
            chk.err(name, "file missing")
    for name in names:
        if name not in expected_files:
            chk.err(name, "unexpected file")

    per_section = Counter()
    per_edition = Counter()
    present = defaultdict(set)  # id -> editions
    seen = defaultdict(list)  # (id, edition) -> titles
    editions_of = defaultdict(list)  # id -> list of edition lists
    notes = {}
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            chk.err(f.name, f"cannot load: {exc}")
            continue
        if not isinstance(data, list):
            chk.err(f.name, "top level must be a list of cases")
            continue
        for idx, case in enumerate(data):
            res = chk.check_case(f.name, idx, case)
            if not res:
                continue
            cid, eds, title, has_note = res
            per_section[cid[2]] += 1
            editions_of[cid].append(tuple(eds))
            notes.setdefault(cid, []).append(has_note)
            for e in eds:
                per_edition[e] += 1
                present[cid].add(e)
                seen[(cid, e)].append(title)

    for (cid, e), titles in seen.items():
        if len(titles) != len(set(titles)):
            chk.err(cid, f"edition {e} appears twice with the same title")
    for cid, lists in editions_of.items():
        # a case split by edition must say why in every copy
        if any(len(eds) == 1 for eds in lists) and not all(notes[cid]):
            chk.err(cid, "a case given per edition needs a note in every copy")

    missing = []
    for sec, size in SECTION_SIZES.items():
        for num in range(1, size + 1):
            cid = f"6.{sec}.{num}"
            for e in EDITIONS:
                if e not in present.get(cid, ()):
                    missing.append(f"{cid} ({e})")
    for cid in present:
        sec, num = ID_RE.match(cid).groups()
        if int(num) > SECTION_SIZES[sec]:
            chk.err(cid, "id not in DATC v3.1 chapter 6")

    print("cases per section (entries in the file / distinct ids):")
    for sec in SECTION_SIZES:
        ids = {c for c in present if c[2] == sec}
        print(f"  6.{sec}: {per_section[sec]:3d} entries, {len(ids):3d} ids")
    print("cases per edition:", ", ".join(f"{e}: {per_edition[e]}" for e in EDITIONS))
    print(
        f"total: {sum(per_section.values())} entries, {len(present)} distinct ids "
        f"(expected {sum(SECTION_SIZES.values())})"
    )
    if missing:
        chk.err("coverage", "missing for an edition: " + ", ".join(missing))
    if chk.errors:
        print(f"\n{len(chk.errors)} problem(s):")
        for e in chk.errors:
            print("  " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
