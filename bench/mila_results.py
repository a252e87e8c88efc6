"""fogdip's result words measured against MILA's (the ``diplomacy`` package, the bench extra).

Three sources, each compared unit by unit:

1. MILA's own DATC test expectations: ``diplomacy/tests/test_datc.py`` is read at run time
   with :mod:`ast` (nothing of it is copied here). Each test is interpreted twice, once
   driving MILA's engine (to confirm the expectation holds there) and once driving fogdip;
   every ``check_results`` assertion is checked against fogdip's words with the same
   meaning as MILA's check (see :func:`FogdipDriver.check_results`).
2. The 40 real games in ``tests/data/games``: every phase is adjudicated by MILA (loaded
   with ``Game.set_state``, the record's ``homes`` left out) and by fogdip, and the words of
   every unit are compared.
3. MILA's three sample games (``diplomacy/tests/network/{1,2,3}.json``): fogdip's words
   against the ``results`` MILA recorded.

Each difference is put in a category (see :data:`CATEGORIES`); the categories say when MILA
gives which word. Run with the bench extra installed::

    PYTHONPATH=src python bench/mila_results.py [--examples 2] [--editions 2000,2000-explicit,2023]
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fogdip.documents import state_from_document
from fogdip.engine.judge import adjudicate
from fogdip.engine.map import standard_map
from fogdip.engine.orders import Convoy, Move
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.interop.mila import load_fogdip_game, load_saved_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "data" / "games").glob("game_*.json"))
FOGDIP_DATC = ROOT / "tests" / "datc" / "data"

#: Rule sets tried. "2000" is the edition MILA's engine follows (DATC v2.4 choices; an army
#: goes by sea to a neighbouring province when a fleet of its own power convoys it);
#: "2000-explicit" adds adjacent_convoy_intent="explicit" (only with VIA, as the Cicero records
#: do); "2023" is the DATC v3.1 edition.
RULE_SETS: dict[str, Callable[[], Rules]] = {
    "2000": lambda: get_rules("2000"),
    "2000-explicit": lambda: get_rules("2000").with_options(adjacent_convoy_intent="explicit"),
    "2023": lambda: get_rules("2023"),
    "2023-explicit": lambda: get_rules("2023").with_options(adjacent_convoy_intent="explicit"),
}


def mila_package() -> Path:
    import diplomacy

    return Path(diplomacy.__file__).resolve().parent


def words(values: Iterable[object]) -> list[str]:
    """MILA's result codes as plain words (its OK is the empty word)."""
    return [str(getattr(v, "message", v)) for v in values]


# =================================================================================================
# 1. MILA's DATC expectations
# =================================================================================================

#: The constants test_datc.py imports from diplomacy.utils.order_results, as words.
CONSTANTS = {
    "OK": "",
    "NO_CONVOY": "no convoy",
    "BOUNCE": "bounce",
    "VOID": "void",
    "CUT": "cut",
    "DISLODGED": "dislodged",
    "DISRUPTED": "disrupted",
    "DISBAND": "disband",
    "None": None,
    "True": True,
    "False": False,
}


@dataclass
class Check:
    """One ``check_results`` assertion of a MILA DATC test."""

    case: str
    line: int
    unit: str
    value: str | list[str]
    phase: str
    text: str


@dataclass
class CheckOutcome:
    passed: bool
    words: list[str] | None  # the unit's words in that engine (None: phase not reached)
    note: str = ""
    resolution: Any = None  # fogdip's resolution of the phase checked
    rejected: list[str] = field(default_factory=list)


def _datc_tests() -> list[tuple[str, ast.FunctionDef]]:
    source = (mila_package() / "tests" / "test_datc.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    tests = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name.startswith("test_"):
                    tests.append((item.name, item))
    return tests


def case_id(test_name: str) -> str:
    """``test_6_a_1`` -> ``6.A.1``."""
    _, major, section, number = test_name.split("_")
    return f"{major}.{section.upper()}.{number}"


class MilaDriver:
    """Runs a test's statements on MILA's engine, checking with MILA's own helpers."""

    def __init__(self) -> None:
        from diplomacy import Game
        from diplomacy.tests.test_datc import TestDATC, check_dislodged  # MILA's helpers, used as they are

        self._game_class = Game
        self._helpers = TestDATC
        self._check_dislodged = check_dislodged
        self.game: Any = None

    def create_game(self) -> Any:
        self.game = self._game_class()
        return self.game

    def phase_type(self) -> str | None:
        kind: str | None = self.game.phase_type
        return kind

    def call(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if name == "check_dislodged":
            return self._check_dislodged(self.game, *args)
        if name == "check_results":
            unit, value = args
            import diplomacy.utils.order_results as codes

            def code(word: str) -> Any:
                return next(c for c in vars(codes).values() if isinstance(c, codes.OrderResult) and c.message == word)

            value = [code(w) for w in value] if isinstance(value, list) else code(value)
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()):
                try:
                    return self._helpers.check_results(self.game, unit, value, **kwargs)
                except RuntimeError:  # MILA raises on duplicate words
                    return False
        method = getattr(self._helpers, name)
        return method(self.game, *args, **kwargs)

    def unit_words(self, unit: str) -> list[str]:
        history = self.game.result_history
        return words(history.last_value().get(unit, [])) if history else []


class FogdipDriver:
    """Runs a test's statements on fogdip: the same board changes, orders and checks."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.board = standard_map()
        self.state = GameState.initial(self.board)
        self.orders: dict[str, list[str]] = {}
        self.last: Resolution | None = None

    def create_game(self) -> FogdipDriver:
        self.state = GameState.initial(self.board)
        self.orders = {}
        self.last = None
        return self

    def phase_type(self) -> str | None:
        return None if self.state.completed else self.state.phase.kind

    # --- board changes (MILA's meanings: set_units replaces any unit in the same province) -----

    def clear_units(self) -> None:
        self.state = self.state.with_changes(units={}, dislodged={})

    def clear_centers(self) -> None:
        self.state = self.state.with_changes(centers={})

    def set_units(self, power: str, units: str | list[str]) -> None:
        placed = dict(self.state.units)
        for text in [units] if isinstance(units, str) else units:
            kind, location = text.split()
            try:
                province = self.board.province_of(location)
            except KeyError:
                continue  # not a location (MILA's own tests write A LIV in 6.J.4; MILA refuses it too)
            placed[province] = Unit(power, kind, location)  # type: ignore[arg-type]
        self.state = self.state.with_changes(units=placed)

    def set_centers(self, power: str, centers: str | list[str]) -> None:
        owners = dict(self.state.centers)
        for center in [centers] if isinstance(centers, str) else centers:
            owners[center] = power
        self.state = self.state.with_changes(centers=owners)

    def move_to_phase(self, name: str) -> None:
        self.state = self.state.with_changes(phase=Phase.parse(name))

    def set_orders(self, power: str, orders: str | list[str]) -> None:
        self.orders.setdefault(power, []).extend([orders] if isinstance(orders, str) else orders)

    def process(self) -> None:
        self.last = adjudicate(self.state, self.orders, self.rules)
        self.state = self.last.after
        self.orders = {}

    # --- checks ------------------------------------------------------------------------------

    def unit_words(self, unit: str) -> list[str]:
        """The unit's words in the last phase, one list per order (adjustments can have two)."""
        found: list[str] = []
        for result in self._results_of(unit):
            found.extend(result.results)
        return found

    def _results_of(self, unit: str) -> list[Any]:
        if self.last is None:
            return []
        return [r for r in self.last.orders if unit_key(r) == unit]

    def rejected(self, unit: str) -> list[str]:
        """Orders fogdip refused outright for this unit (no result at all), as "text (reason)"."""
        if self.last is None:
            return []
        return [f"{r.text} ({r.reason})" for r in self.last.rejected if " ".join(r.text.split()[:2]) == unit]

    def check_results(self, unit: str, value: str | list[str], phase: str = "M") -> bool:
        """MILA's check_results, read for fogdip's words:

        * retreat phase: VOID passes if the unit's words include void; OK if the unit
          retreated with no word; any other word if the unit was disbanded (MILA's "popped")
          and has that word;
        * adjustment phase: VOID passes if void is among the words; otherwise the words must
          equal the expected list, MILA's OK being the empty word ('' per order carried out)
          (compared as multisets: fogdip lists a unit's orders in its own order);
        * movement phase: VOID passes if the unit has void, or had no (accepted) order; the
          unit must have been on the board; OK means no word at all; any other expected word
          must be among the unit's words.
        """
        results = self._results_of(unit)
        found = self.unit_words(unit)
        if phase == "R":
            popped = any("disband" in r.results for r in results)
            if value == "void" and "void" in found:
                return True
            if value == "":
                return not popped and found == []
            return popped and value in found
        if phase == "A":
            if (value == "void" or (isinstance(value, list) and value == ["void"])) and "void" in found:
                return True
            per_order = [w for r in results for w in (r.results or ("",))]
            expected = value if isinstance(value, list) else [value]
            return sorted(per_order) == sorted(expected)
        if value == "void":
            # void, or the unit had no accepted order
            return "void" in found or not results or all(r.defaulted for r in results)
        if not results:
            return False
        if value == "":
            return found == []
        return value in found

    def owner_name(self, unit: str) -> str | None:
        kind, location = unit.split()
        try:
            found = self.state.units.get(self.board.province_of(location))
        except KeyError:
            return None
        if found is None or found.kind != kind:
            return None
        if "/" in location and found.location != location:
            return None
        return found.power

    def check_dislodged(self, unit: str, dislodger: str) -> bool:
        if self.last is None or self.last.before.phase.kind != "M":
            return False
        for province, attacker in self.last.dislodged.items():
            if str(self.last.before.units[province]) == unit:
                return attacker == dislodger.split()[1][:3]
        return False

    def call(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        return getattr(self, name)(*args, **kwargs)


class Interpreter:
    """Evaluates the statements of one MILA DATC test against a driver, recording every
    assertion's outcome instead of stopping at the first failure."""

    def __init__(self, driver: Any, case: str) -> None:
        self.driver = driver
        self.case = case
        self.checks: list[tuple[Check, CheckOutcome]] = []
        self.positions: list[tuple[int, str, bool]] = []

    def run(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Expr):
            if isinstance(node.value, ast.Call):
                self.expr(node.value)
            return  # docstring
        if isinstance(node, ast.Assign):
            self.expr(node.value)  # game = self.create_game()
            return
        if isinstance(node, ast.If):
            self.run(node.body if self.expr(node.test) else node.orelse)
            return
        if isinstance(node, ast.Assert):
            self.assertion(node)
            return
        raise ValueError(f"{self.case}: unexpected statement {ast.unparse(node)}")

    def assertion(self, node: ast.Assert) -> None:
        test = node.test
        if isinstance(test, ast.Call) and _name(test.func) == "check_results":
            args, kwargs = self.arguments(test)
            unit, value = args[0], args[1]
            phase = kwargs.get("phase", "M")
            check = Check(self.case, node.lineno, unit, value, phase, ast.unparse(test))
            try:
                passed = bool(self.driver.call("check_results", [unit, value], dict(kwargs)))
            except Exception as exc:
                self.checks.append((check, CheckOutcome(False, None, f"error: {exc}")))
                return
            note, resolution, rejected = "", None, []
            if isinstance(self.driver, FogdipDriver):
                rejected = self.driver.rejected(unit)
                resolution = self.driver.last
                if rejected:
                    note = "(fogdip refused: " + "; ".join(rejected) + ")"
            self.checks.append((check, CheckOutcome(passed, self.driver.unit_words(unit), note, resolution, rejected)))
            return
        try:
            passed = bool(self.expr(test))
        except Exception as exc:
            passed = False
            self.positions.append((node.lineno, f"{ast.unparse(test)} (error: {exc})", passed))
            return
        self.positions.append((node.lineno, ast.unparse(test), passed))

    def arguments(self, call: ast.Call) -> tuple[list[Any], dict[str, Any]]:
        args = [self.expr(a) for a in call.args]
        if args and args[0] is self.driver:
            args = args[1:]
        kwargs = {k.arg: self.expr(k.value) for k in call.keywords if k.arg}
        return args, kwargs

    def expr(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id == "game":
                return self.driver
            return CONSTANTS[node.id]
        if isinstance(node, ast.List | ast.Tuple):
            return [self.expr(e) for e in node.elts]
        if isinstance(node, ast.Attribute) and _name(node.value) == "game" and node.attr == "phase_type":
            return self.driver.phase_type()
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.expr(node.left), self.expr(node.comparators[0])
            op = node.ops[0]
            if isinstance(op, ast.Eq):
                return left == right
            if isinstance(op, ast.NotEq):
                return left != right
            if isinstance(op, ast.Is):
                return left is right
            if isinstance(op, ast.IsNot):
                return left is not right
        if isinstance(node, ast.BoolOp):
            values = (self.expr(v) for v in node.values)
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.expr(node.operand)
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name == "create_game":
                return self.driver.create_game()
            args, kwargs = self.arguments(node)
            return self.driver.call(name, args, kwargs)
        raise ValueError(f"{self.case}: unexpected expression {ast.unparse(node)}")


def unit_key(result: Any) -> str:
    """The unit a fogdip order result is about, as MILA keys it: the unit, or for an order
    that names no existing unit (an illegal build) the unit it names."""
    if result.unit is not None:
        return str(result.unit)
    ref = getattr(result.order, "unit", None)
    if ref is None:
        return "WAIVE"
    return f"{ref.kind or '?'} {ref.location}"


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


@dataclass
class DatcRun:
    cases: int = 0
    mila: dict[tuple[str, int], tuple[Check, CheckOutcome]] = field(default_factory=dict)
    fogdip: dict[str, dict[tuple[str, int], tuple[Check, CheckOutcome]]] = field(default_factory=dict)
    positions: dict[str, dict[tuple[str, int], bool]] = field(default_factory=dict)
    orders: dict[str, list[str]] = field(default_factory=dict)


def run_datc(rule_sets: list[str]) -> DatcRun:
    run = DatcRun()
    tests = _datc_tests()
    run.cases = len(tests)
    for label in ["MILA", *rule_sets]:
        run.fogdip.setdefault(label, {})
        run.positions[label] = {}
        for name, function in tests:
            case = case_id(name)
            driver = MilaDriver() if label == "MILA" else FogdipDriver(RULE_SETS[label]())
            interpreter = Interpreter(driver, case)
            try:
                interpreter.run(function.body)
            except Exception as exc:
                interpreter.positions.append((0, f"test stopped: {exc!r}", False))
            for check, outcome in interpreter.checks:
                key = (case, check.line)
                if label == "MILA":
                    run.mila[key] = (check, outcome)
                else:
                    run.fogdip[label][key] = (check, outcome)
            for line, _, passed in interpreter.positions:
                run.positions[label][(case, line)] = passed
            if label == "MILA":
                run.orders[case] = _orders_of(function)
    return run


def _orders_of(function: ast.FunctionDef) -> list[str]:
    """The orders a test gives, for the report."""
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and _name(node.func) == "set_orders":
            power = ast.literal_eval(node.args[1])
            orders = ast.literal_eval(node.args[2])
            for order in [orders] if isinstance(orders, str) else orders:
                found.append(f"{power[:3]}: {order}")
    return found


def fogdip_datc_expectation(case: str, edition: str = "2000") -> dict[str, str | None]:
    """fogdip's own DATC v3.1 data for a case: order text -> ok/fails/illegal."""
    section = case.split(".")[1]
    path = FOGDIP_DATC / f"6{section}.json"
    if not path.exists():
        return {}
    expected: dict[str, str | None] = {}
    for entry in json.loads(path.read_text()):
        if entry["id"] == case and edition in entry["editions"]:
            for step in entry["steps"]:
                expected.update(step["expect"]["orders"])
    return expected


#: Why fogdip's words differ from MILA's DATC expectation, per case (our reading of each side),
#: where the category alone does not say it.
DATC_REASONS: dict[str, str] = {
    "6.B.9": "MILA drops the coast of a support's destination, so Portugal's support to SPA/NC counts for the move "
    "to SPA/SC and the Italian move bounces; DATC 4.B.4 (both editions) makes the support fail, so "
    "fogdip gives the support void and F WES moves. fogdip is right; the MILA test encodes MILA's rule.",
}

#: Category of the differences the classifier cannot place by the words alone.
DATC_CATEGORY: dict[str, str] = {"6.B.9": "support-coast"}


def report_datc(run: DatcRun, rule_sets: list[str], primary: str) -> list[str]:
    lines = ["", "=" * 100, "1. MILA's DATC test expectations (diplomacy/tests/test_datc.py)", "=" * 100]
    mila_passed = sum(1 for _, o in run.mila.values() if o.passed)
    lines.append(
        f"cases parsed: {run.cases}; check_results assertions: {len(run.mila)}; MILA itself passes {mila_passed}"
    )
    failing_in_mila = [(c, o) for c, o in run.mila.values() if not o.passed]
    for check, outcome in failing_in_mila:
        lines.append(
            f"  MILA fails its own check: {check.case} line {check.line}: {check.text} (MILA words {outcome.words})"
        )
    summary = []
    for label in rule_sets:
        results = run.fogdip[label]
        agree = sum(1 for key, (_, o) in results.items() if key in run.mila and run.mila[key][1].passed and o.passed)
        checked = sum(1 for key in run.mila if run.mila[key][1].passed)
        positions = run.positions[label]
        mila_positions = run.positions["MILA"]
        pos_checked = [k for k, ok in mila_positions.items() if ok]
        pos_agree = sum(1 for k in pos_checked if positions.get(k))
        summary.append(
            f"  rules {label:14}: {checked} assertions (those MILA passes), {agree} agree, "
            f"{checked - agree} differ; position assertions {len(pos_checked)}, {pos_agree} agree"
        )
    lines.extend(summary)
    lines.append("")
    lines.append(
        f"Differences under rules {primary} (case: orders; unit [phase]: MILA's expectation, MILA's words, "
        "fogdip's words; category):"
    )
    results = run.fogdip[primary]
    by_case: dict[str, list[str]] = defaultdict(list)
    tags: dict[str, set[str]] = defaultdict(set)
    per_category: Counter[str] = Counter()
    for key, (check, mila_outcome) in sorted(run.mila.items(), key=lambda kv: _case_key(kv[0])):
        if not mila_outcome.passed:
            continue
        found = results.get(key)
        if found is None:
            by_case[check.case].append(
                f"{check.unit}: expected {_show(check.value)} in phase {check.phase}: "
                "fogdip never reached this check (its phase differs)"
            )
            per_category["phase-not-reached"] += 1
            continue
        _, outcome = found
        if outcome.passed:
            continue
        mine = [r for r in outcome.resolution.orders if unit_key(r) == check.unit] if outcome.resolution else []
        category, detail = classify(
            check.phase,
            check.unit,
            mine,
            outcome.resolution,
            mila_outcome.words or [],
            outcome.words or [],
            True,
            outcome.rejected,
        )
        if category == "other" and check.case in DATC_CATEGORY:
            category, detail = DATC_CATEGORY[check.case], ""
        per_category[category] += 1
        tags[check.case].add(category)
        by_case[check.case].append(
            f"{check.unit} [{check.phase}]: expects {_show(check.value)}; MILA {outcome_words(mila_outcome)}, "
            f"fogdip {outcome_words(outcome)}{' ' + outcome.note if outcome.note else ''}; "
            f"[{category}{': ' + detail if detail else ''}]"
        )
    for case in sorted(by_case, key=lambda c: _case_key((c, 0))):
        lines.append(f"- {case}: {'; '.join(run.orders.get(case, []))}")
        for item in by_case[case]:
            lines.append(f"    {item}")
        reason = DATC_REASONS.get(case)
        if reason:
            lines.append(f"    reason: {reason}")
        ours = fogdip_datc_expectation(case)
        if ours:
            lines.append("    fogdip's DATC v3.1 data (2000): " + ", ".join(f"{k}={v}" for k, v in ours.items()))
    lines.append("")
    lines.append(f"DATC differences by category (rules {primary}):")
    for category, count in per_category.most_common():
        title = CATEGORIES[category].title if category in CATEGORIES else category
        cases = sorted((c for c, t in tags.items() if category in t), key=lambda c: _case_key((c, 0)))
        lines.append(f"  {count:3} [{category}] {title}: {', '.join(cases)}")
    mila_positions = run.positions["MILA"]
    wrong = sorted((k for k, ok in mila_positions.items() if ok and not run.positions[primary].get(k)), key=_case_key)
    if wrong:
        lines.append(
            f"position assertions (owner_name, check_dislodged) MILA passes and fogdip ({primary}) does not: "
            + ", ".join(f"{case} line {line}" for case, line in wrong)
        )
    # Differences between rule sets, for the record.
    for label in rule_sets:
        if label == primary:
            continue
        other = run.fogdip[label]
        changed = [
            key
            for key in run.mila
            if run.mila[key][1].passed
            and key in other
            and key in results
            and other[key][1].passed != results[key][1].passed
        ]
        if changed:
            lines.append(
                f"rules {label} vs {primary}: {len(changed)} assertions change: "
                + ", ".join(
                    f"{k[0]} {run.mila[k][0].unit} ({'passes' if other[k][1].passed else 'fails'} under {label})"
                    for k in sorted(changed, key=_case_key)
                )
            )
        failing = sorted(
            {k[0] for k, ok in run.positions["MILA"].items() if ok and not run.positions[label].get(k)},
            key=lambda c: _case_key((c, 0)),
        )
        if failing:
            lines.append(f"rules {label}: position assertions fail in cases {', '.join(failing)}")
    agree = sum(1 for key, (_, o) in results.items() if key in run.mila and run.mila[key][1].passed and o.passed)
    checked = sum(1 for key in run.mila if run.mila[key][1].passed)
    lines.append("")
    lines.append(
        f"DATC expectations: {checked} assertions, {agree} agree, {checked - agree} differ "
        f"(rules {primary}; {run.cases} cases parsed, {len(run.mila)} check_results assertions)"
    )
    return lines


def _case_key(key: tuple[str, int]) -> tuple[Any, ...]:
    major, section, number = key[0].split(".")
    return (int(major), section, int(number), key[1])


def _show(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return "OK" if value == "" else str(value)


def outcome_words(outcome: CheckOutcome) -> str:
    return "(not reached)" if outcome.words is None else "[" + ", ".join(_show(w) for w in outcome.words) + "]"


# =================================================================================================
# 2 and 3. Whole games: MILA's words against fogdip's, unit by unit
# =================================================================================================


@dataclass
class UnitDiff:
    source: str  # game file stem or sample game name
    phase: str
    unit: str
    power: str
    order: str  # fogdip's reading of the unit's order ("" if none)
    kind: str  # fogdip's order kind: move, support_move, convoy, ... or "none"
    outcome: str  # fogdip's outcome
    mila: list[str]
    fogdip: list[str]
    context: list[str]  # related orders, for the report
    mila_accepted: bool = True
    resolution: Any = None
    results: list[Any] = field(default_factory=list)
    live: list[str] | None = None  # MILA 1.1.2's own word when it re-adjudicates a recorded phase


@dataclass
class GameTally:
    units: int = 0
    agree: int = 0
    diffs: list[UnitDiff] = field(default_factory=list)
    phases: int = 0
    errors: list[str] = field(default_factory=list)
    order_only: int = 0  # same words in another order
    notes: list[str] = field(default_factory=list)

    @property
    def differ(self) -> int:
        return len(self.diffs)


def _normal(values: Iterable[str]) -> list[str]:
    """Words without MILA's OK ('' is how MILA writes a build or removal carried out)."""
    return [w for w in values if w != ""]


def fogdip_words(resolution: Resolution) -> dict[str, list[Any]]:
    """Each unit's order results in a fogdip resolution, keyed like MILA's results."""
    found: dict[str, list[Any]] = defaultdict(list)
    for result in resolution.orders:
        if result.outcome == "waived":
            continue
        found[unit_key(result)].append(result)
    return found


def _context(resolution: Resolution, result: Any) -> list[str]:
    """The orders that bear on a unit's result: its own, and those naming its province or target."""
    if result is None:
        return []
    provinces = {p for p in _provinces(result.order)}
    lines = []
    for other in resolution.orders:
        if other is result:
            continue
        if provinces & set(_provinces(other.order)):
            lines.append(f"{other.power[:3]} {other.text or str(other.unit) + ' (no order)'}")
    return lines[:8]


def _provinces(order: Any) -> list[str]:
    board = standard_map()
    found = []
    for name in ("unit", "supported", "army"):
        ref = getattr(order, name, None)
        if ref is not None:
            found.append(board.province_of(ref.location))
    target = getattr(order, "target", None)
    if target:
        found.append(board.province_of(target))
    return found


def compare_phase(
    source: str,
    phase: str,
    mila_results: Mapping[str, Iterable[Any]],
    resolution: Resolution,
    tally: GameTally,
    mila_accepted: set[str] | None = None,
    skip: Callable[[str], bool] | None = None,
    live: Mapping[str, Iterable[Any]] | None = None,
) -> None:
    ours = fogdip_words(resolution)
    theirs = {unit: words(values) for unit, values in mila_results.items()}
    for unit in sorted(set(ours) | set(theirs)):
        if skip is not None and skip(unit):
            continue
        results = ours.get(unit, [])
        mine = [w for r in results for w in r.results]
        their = theirs.get(unit)
        tally.units += 1
        a, b = _normal(their or []), _normal(mine)
        if their is not None and sorted(a) == sorted(b) and results:
            tally.agree += 1
            if a != b:
                tally.order_only += 1
            continue
        if their is None and not mine and all(r.outcome in ("held",) and r.defaulted for r in results):
            tally.agree += 1  # a unit MILA does not list, with nothing to say in fogdip either
            continue
        first = results[0] if results else None
        tally.diffs.append(
            UnitDiff(
                source=source,
                phase=phase,
                unit=unit,
                power=first.power if first else "?",
                order=" / ".join(r.text or "(no order)" for r in results),
                kind=first.order.kind if first else "none",
                outcome=",".join(r.outcome for r in results) or "none",
                mila=["(absent)"] if their is None else their,
                fogdip=mine,
                context=_context(resolution, first),
                mila_accepted=mila_accepted is None
                or unit in mila_accepted
                or not results
                or all(r.defaulted for r in results),
                resolution=resolution,
                results=results,
                live=None if live is None else words(live.get(unit, [])),
            )
        )


def mila_state(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A fogdip phase document as the state MILA's set_state reads (homes left out: the
    records' homes mean "home centres still owned", see docs/mila-notes.md 6.2)."""
    return {"name": doc["phase"], "units": doc["units"], "retreats": doc.get("retreats", {}), "centers": doc["centers"]}


def mila_adjudicate(
    doc: Mapping[str, Any], restore_dislodged: bool = True
) -> tuple[dict[str, list[Any]], set[str], Any]:
    """MILA's results for one phase document, the units whose orders MILA accepted, and the game."""
    from diplomacy import Game

    game = Game()
    game.set_state(mila_state(doc))
    if game.phase_type == "R" and restore_dislodged:
        # MILA's retreat-phase "disband" words come from its in-memory table of the units dislodged in
        # the movement phase, which set_state does not restore: fill it in as a continuous game has it.
        game.dislodged = {unit: "" for power in game.powers.values() for unit in power.retreats}
    for power, orders in doc.get("orders", {}).items():
        if orders:
            game.set_orders(power, list(orders))
    accepted: set[str] = set()
    for power in game.powers.values():
        if game.phase_type == "M":
            accepted.update(power.orders)
        elif game.phase_type == "R":
            accepted.update(" ".join(o.split()[:2]) for o in power.adjust if not o.startswith("VOID"))
        else:
            accepted.update(" ".join(o.split()[:2]) for o in power.adjust if not o.startswith("VOID"))
    phase = game.get_current_phase()
    game.process()
    return dict(game.result_history[phase]), accepted, game


def run_real_games(rules: Rules, limit: int | None = None) -> GameTally:
    tally = GameTally()
    unrestored = 0
    for path in GAMES[:limit]:
        game = load_fogdip_game(json.loads(path.read_text()))
        for doc in game.phases[:-1]:
            if doc["phase"] == "COMPLETED":
                continue
            tally.phases += 1
            try:
                theirs, accepted, _ = mila_adjudicate(doc)
            except Exception as exc:
                tally.errors.append(f"{path.stem} {doc['phase']}: MILA failed: {exc!r}")
                continue
            if doc["phase"].endswith("R"):
                bare, _, _ = mila_adjudicate(doc, restore_dislodged=False)
                unrestored += sum(
                    1
                    for unit, values in theirs.items()
                    if "disband" in words(values) and "disband" not in words(bare.get(unit, []))
                )
            state, _, orders = state_from_document(doc)
            resolution = adjudicate(state, orders, rules)
            compare_phase(path.stem.split("_")[1], doc["phase"], theirs, resolution, tally, accepted)
    tally.notes.append(
        "MILA is loaded phase by phase with set_state; before a retreat phase its table of dislodged units is filled "
        f"from the record's retreats (set_state leaves it empty, and {unrestored} units would then lack 'disband')."
    )
    return tally


def run_sample_games(rules: Rules) -> GameTally:
    """fogdip's words against those MILA recorded in its own sample games."""
    tally = GameTally()
    folder = mila_package() / "tests" / "network"
    for name in ("1", "2", "3"):
        data = json.loads((folder / f"{name}.json").read_text())
        game = load_saved_game(data)
        for index, (doc, recorded) in enumerate(zip(game.phases, game.recorded_results, strict=True)):
            if doc["phase"] == "COMPLETED" or index + 1 == len(game.phases):
                continue
            tally.phases += 1
            state, _, orders = state_from_document(doc)
            resolution = adjudicate(state, orders, rules)
            live, _, _ = mila_adjudicate(doc)
            compare_phase(f"network/{name}.json", doc["phase"], recorded, resolution, tally, live=live)
    return tally


# =================================================================================================
# Categories of differences, with the conditions under which MILA gives its word
# =================================================================================================


@dataclass(frozen=True)
class Category:
    title: str
    mila: str  # when MILA gives its word (our reading of diplomacy/engine/game.py)
    fogdip: str  # what fogdip does, and why
    #: "follows": fogdip gives MILA's word, so a difference here is a regression; "keeps": a
    #: documented difference (docs/mila-notes.md §9), with its reason.
    status: str = "keeps"


CATEGORIES: dict[str, Category] = {
    # --- MILA's meanings that fogdip follows: any difference here is a regression ---------------
    "self-dislodge-void": Category(
        "support that could only help dislodge a unit of the supporter's own power: MILA [void]",
        "MILA marks an uncut move support 'void' when, at the start of the turn, the supported move's "
        "destination holds a unit of the supporter's power (whose unit is supported does not matter), and either "
        "(a) head-to-head: that unit is ordered into the supported unit's province, neither going by convoy: void "
        "whatever the outcome; or (b)/(c) that unit stays (holds, supports, convoys, or its own move fails) and the "
        "supported move, counting all its uncut supports, is the single strongest claim on the province (strictly "
        "above the unit's hold strength and every other move into it): void whether the move then bounces or still "
        "dislodges. No void when the unit there leaves, when the move is tied or beaten anyway, or for a cut "
        "support ('cut').",
        "follows (movement_phase._support_words); the outcome stays 'supported' (the DATC only says the support "
        "does not count toward dislodging one's own unit).",
        "follows",
    ),
    "convoy-not-on-route": Category(
        "convoy of the army's very move that did not carry it: MILA [no convoy, void]",
        "A convoying fleet on no chain of the fleets ordered to convoy that move gets 'no convoy', then 'void': the "
        "army moved over land, or the chain is incomplete. A convoy for an army that moves elsewhere or holds is "
        "only 'void'; the other fleets of a disrupted convoy get only 'no convoy'.",
        "follows ('convoy-unused').",
        "follows",
    ),
    "support-no-route": Category(
        "support of a convoyed move that had no route at all: MILA [void]",
        "An army that must go by sea and has no complete chain of fleets ordered to convoy it gets 'no convoy', "
        "and every support of its move 'void'.",
        "follows.",
        "follows",
    ),
    "disrupted-army": Category(
        "army whose convoy was disrupted: MILA [no convoy]",
        "MILA never gives 'disrupted' to an army.",
        "follows (the outcome stays 'disrupted').",
        "follows",
    ),
    "disrupted-fleet-dislodged": Category(
        "convoying fleet that is dislodged: MILA [dislodged]",
        "MILA replaces a dislodged convoying fleet's 'disrupted' by 'dislodged'; 'disrupted' survives only for a "
        "fleet whose convoy failed without it being dislodged (paradoxes). One sample game has a fleet MILA "
        "dislodges where fogdip applies the Szykman rule: MILA counts a support from the fleet's own power "
        "against it (an attack by the fleet's own side may not disrupt its convoy, DATC 6.F.5-6.F.9).",
        "follows, except where MILA's slip changes the battle itself.",
        "follows",
    ),
    "disrupted-companions": Category(
        "the other orders of a disrupted convoy: MILA [no convoy]",
        "When a convoyed move fails because its convoy is disrupted, MILA gives 'no convoy' to every order that "
        "supports or convoys that army and has no word yet.",
        "follows.",
        "follows",
    ),
    "removal-ok": Category(
        "adjustment removal carried out: MILA [''] (OK)",
        "MILA writes OK for every build and removal carried out, civil-disorder removals included.",
        "follows (the outcome says 'removed').",
        "follows",
    ),
    # --- documented differences --------------------------------------------------------------
    "mila-via-slip": Category(
        "support against one's own unit of a move written with VIA: MILA [], fogdip [void]",
        "MILA reads a supported move's destination from the order's last word, which for a VIA move is 'VIA', so "
        "such a support escapes its own self-dislodgement rule (and counts, if the move went by convoy).",
        "keeps 'void': the support can never help dislodge one's own unit, however the move is written.",
    ),
    "older-engine": Category(
        "sample game recorded by an older MILA: MILA 1.1.2 re-adjudicating the phase gives fogdip's word",
        "The three sample games ship with MILA 1.1.2 but their results were recorded by an earlier engine: "
        "re-adjudicated by 1.1.2 itself, the phase gives fogdip's word.",
        "keeps MILA 1.1.2's word.",
    ),
    "waive-void": Category(
        "WAIVE: MILA {'WAIVE': [void, ...]}, fogdip nothing",
        "MILA lists every WAIVE in a power's adjustment orders under the single key 'WAIVE' with 'void' (one per "
        "waive, all powers together), whether the power wrote it or MILA padded the orders with it (it pads a "
        "dummy power, and every power of a bare Game() is a dummy, and a power that wrote one WAIVE).",
        "keeps: a waive is carried out; 'void' is a MILA artefact that the DATC and the records do not ask for.",
    ),
    "stale-disband": Category(
        "unit destroyed in the previous movement phase listed again: MILA [disband], fogdip nothing",
        "MILA deletes a dislodged unit with no retreat during the movement phase but keeps it in an in-memory "
        "table, so the next retreat or winter phase lists it with 'disband' (docs/mila-notes.md §9). The table is "
        "not saved: a game loaded with set_state has no such words.",
        "keeps: fogdip reports the disbanding with the movement phase (Resolution.disbanded, the unit's "
        "'dislodged'), where it happens.",
    ),
    "mila-drops-order": Category(
        "order MILA rejects when it is given: MILA [] (the unit holds), fogdip [void]",
        "MILA validates orders as they are set and drops the ones it cannot use: a convoy by a fleet on no "
        "minimal route between the army and its destination (game_435086 F ENG C A YOR - BEL: NTH alone "
        "suffices). The unit then holds with no word.",
        "keeps: the order is illegal (DATC 4.E.1, 6.G.19), and 'void' says so.",
    ),
    "fogdip-refuses": Category(
        "retreat/adjustment order naming no unit of the power: MILA [void], fogdip no entry",
        "In retreat and adjustment phases MILA keeps an invalid order as 'VOID ...' and reports 'void' under "
        "the unit it names (a retreat order for a unit not dislodged, a support or convoy in a retreat phase, a "
        "removal of a unit that is not there).",
        "keeps: an order that commands no unit of the power is rejected with its reason (Resolution.rejected), "
        "with no result; the DATC's verdict (illegal) is the same (6.H.1, 6.H.3, 6.H.4, 6.J.1).",
    ),
    "adjacent-convoy-intent": Category(
        "convoy to an adjacent province without VIA (records' rule): fogdip bounces where MILA convoys",
        "MILA treats a move to an adjacent province as convoyed when a fleet of the army's own power is ordered "
        "to convoy it (DATC 4.A.3 2000 choice); the Cicero records convoy only with VIA (docs/mila-notes.md C3).",
        "keeps both: the rules option adjacent_convoy_intent ('explicit' for the records, 'rulebook' for MILA's "
        "engine).",
    ),
    "support-coast": Category(
        "support naming the wrong coast (DATC 6.B.9): MILA counts it, fogdip [void]",
        "MILA drops the coast of a support's destination, so a support to SPA/NC supports a move to SPA/SC.",
        "keeps: DATC 4.B.4/6.B.9 (both editions) say the support fails.",
    ),
    "other": Category("other", "", "unexplained: a difference no category covers"),
}


def classify(
    phase_kind: str,
    unit: str,
    results: list[Any],
    resolution: Any,
    mila: list[str],
    mine: list[str],
    mila_accepted: bool = True,
    rejected: Iterable[str] = (),
    live: list[str] | None = None,
) -> tuple[str, str]:
    """The category of one difference, and a detail (sub-case) for the report. ``live`` is
    what MILA 1.1.2 gives when it re-adjudicates a recorded phase itself."""
    first = results[0] if results else None
    kind = first.order.kind if first is not None else "none"
    m, f = set(_normal(mila)), set(_normal(mine))
    if unit == "WAIVE":
        return "waive-void", ""
    if phase_kind == "A" and any(r.outcome == "removed" for r in results) and "disband" in f and "disband" not in m:
        return "removal-ok", "civil disorder" if any(r.defaulted for r in results) else "ordered"
    if first is None and list(rejected):
        return "fogdip-refuses", "; ".join(rejected)
    if first is None and m == {"disband"}:
        return "stale-disband", ""
    if live is not None and sorted(_normal(live)) == sorted(f):
        return "older-engine", ""
    if not mila_accepted and not m:
        return "mila-drops-order", ""
    if phase_kind == "M" and resolution is not None and first is not None:
        if kind == "support_move" and "void" in f and not m and _supports_via_move(first, resolution):
            return "mila-via-slip", ""
        if kind == "support_move" and "void" in m and "void" not in f:
            supported = resolution.result_of(resolution.before.board.province_of(first.order.supported.location))
            if supported is not None and supported.outcome == "no-path":
                return "support-no-route", ""
        if kind in ("support_move", "support_hold") and "void" in m and "void" not in f:
            return "self-dislodge-void", _self_dislodge_case(first, resolution)
        if kind == "support_move" and first.outcome == "void" and "void" in f and not m:
            return "support-coast", ""
        if kind == "move" and first.outcome == "disrupted" and m == {"no convoy"}:
            return "disrupted-army", ""
        if kind == "convoy" and f == {"disrupted", "dislodged"} and m == {"dislodged"}:
            return "disrupted-fleet-dislodged", ""
        if kind == "convoy" and m == {"no convoy", "void"} | ({"dislodged"} & m):
            return "convoy-not-on-route", _convoy_case(first, resolution)
        if kind in ("convoy", "support_move", "support_hold") and "no convoy" in m and "no convoy" not in f:
            return "disrupted-companions", kind.replace("_", " ")
        if _adjacent_convoy(first, resolution):
            return "adjacent-convoy-intent", ""
    return "other", f"{phase_kind} {kind}/{first.outcome if first else 'none'}"


def _supports_via_move(result: Any, resolution: Any) -> bool:
    """Whether a support names a move that was written with VIA."""
    supported = resolution.result_of(resolution.before.board.province_of(result.order.supported.location))
    return supported is not None and isinstance(supported.order, Move) and supported.order.via_convoy


def _self_dislodge_case(result: Any, resolution: Any) -> str:
    board = resolution.before.board
    order = result.order
    source = board.province_of(order.supported.location)
    target = board.province_of(order.target) if hasattr(order, "target") else source
    mover = resolution.result_of(source)
    occupant = resolution.before.units.get(target)
    if mover is None or occupant is None:
        return "?"
    occupant_result = resolution.result_of(target)
    swap = (
        occupant_result is not None
        and isinstance(occupant_result.order, Move)
        and board.province_of(occupant_result.order.target) == source
    )
    if swap:
        case = "(a) head-to-head"
    elif source in resolution.moves:
        case = "(c) move succeeded, dislodging the supporter's unit"
    else:
        case = "(b) move bounced"
    own = "own move" if mover.power == result.power else "another power's move"
    return f"{case}, {own}" + (
        ", occupant's move failed" if occupant_result and occupant_result.outcome == "bounced" and not swap else ""
    )


def _convoy_case(result: Any, resolution: Any) -> str:
    board = resolution.before.board
    army = resolution.result_of(board.province_of(result.order.army.location))
    if army is None:
        return "no army"
    target = board.province_of(result.order.target)
    if not isinstance(army.order, Move) or board.province_of(army.order.target) != target:
        return "army moves elsewhere"
    if army.outcome in ("moved", "bounced") and army.unit.province not in resolution.convoy_paths:
        adjacent = board.province_of(army.order.target) in board.army_adjacency.get(army.unit.province, ())
        if adjacent:
            return "army moved over land" if army.outcome == "moved" else "army went over land and bounced"
    if army.outcome == "no-path":
        return "no complete route of ordered fleets"
    if army.unit.province in resolution.convoy_paths:
        return "army convoyed by another (shorter) route"
    return f"army {army.outcome}"


def _adjacent_convoy(result: Any, resolution: Any) -> bool:
    """Whether a unit's result depends on a convoy to an adjacent province without VIA."""
    board = resolution.before.board
    for other in resolution.orders:
        order = other.order
        if isinstance(order, Move) and other.unit is not None and other.unit.kind == "A" and not order.via_convoy:
            target = board.province_of(order.target)
            if target in board.army_adjacency.get(other.unit.province, ()) and any(
                isinstance(c.order, Convoy) and board.province_of(c.order.army.location) == other.unit.province
                for c in resolution.orders
            ):
                if result is other or result.unit is None:
                    return True
                if board.province_of(result.unit.location) in (target, other.unit.province):
                    return True
                order = result.order
                if isinstance(order, Convoy) and board.province_of(order.army.location) == other.unit.province:
                    return True
    return False


def report_games(title: str, tally: GameTally, examples: int) -> list[str]:
    lines = ["", "=" * 100, title, "=" * 100]
    lines.append(
        f"phases {tally.phases}, units compared {tally.units}, agree {tally.agree}, differ {tally.differ}"
        f" (of the agreeing, {tally.order_only} list the same words in another order)"
    )
    lines.extend(f"  {note}" for note in tally.notes)
    lines.extend(f"  error: {e}" for e in tally.errors)
    groups: dict[str, dict[str, list[UnitDiff]]] = defaultdict(lambda: defaultdict(list))
    for diff in tally.diffs:
        category, detail = classify(
            diff.phase[-1],
            diff.unit,
            diff.results,
            diff.resolution,
            diff.mila,
            diff.fogdip,
            diff.mila_accepted,
            live=diff.live,
        )
        groups[category][detail].append(diff)
    order = list(CATEGORIES)
    for category in sorted(groups, key=lambda c: (-sum(len(v) for v in groups[c].values()), order.index(c))):
        details = groups[category]
        total = sum(len(v) for v in details.values())
        flag = " (REGRESSION: fogdip follows MILA here)" if CATEGORIES[category].status == "follows" else ""
        lines.append(f"- [{category}] {total} x {CATEGORIES[category].title}{flag}")
        for detail, items in sorted(details.items(), key=lambda kv: -len(kv[1])):
            words = Counter(f"MILA {d.mila} / fogdip {d.fogdip}" for d in items)
            shown = ", ".join(f"{w} x{n}" for w, n in words.most_common())
            lines.append(f"    {len(items):4} x {detail or 'all'}: {shown}")
            for diff in items[:examples]:
                lines.append(
                    f"           e.g. {diff.source} {diff.phase} {diff.power[:3]} {diff.order or diff.unit}"
                    + (f" | {'; '.join(diff.context)}" if diff.context else "")
                )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--editions",
        default="2000,2000-explicit,2023",
        help="fogdip rule sets tried on the DATC expectations (first is the one detailed)",
    )
    parser.add_argument("--examples", type=int, default=2, help="examples shown per category")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: datc,games,samples")
    args = parser.parse_args(argv)
    rule_sets = [e for e in args.editions.split(",") if e]
    skip = set(args.skip.split(","))
    totals: list[str] = []
    if "datc" not in skip:
        run = run_datc(rule_sets)
        lines = report_datc(run, rule_sets, rule_sets[0])
        print("\n".join(lines[:-1]))
        totals.append(lines[-1])
    if "games" not in skip:
        tally = run_real_games(get_rules("2000"))
        explicit = run_real_games(RULE_SETS["2000-explicit"]())
        tally.notes.append(
            f"fogdip rules: edition 2000 (MILA's engine). With adjacent_convoy_intent='explicit' (the records' rule) "
            f"{explicit.differ} units differ ({explicit.differ - tally.differ:+d}): the records' C3 phase, "
            "game_443777 F1907M, where MILA convoys A CON - BUL by its own F AEG and the records do not."
        )
        lines = report_games(
            "2. The 40 real games (tests/data/games), MILA re-adjudicating each phase", tally, args.examples
        )
        print("\n".join(lines))
        totals.append(
            f"real games: phases {tally.phases}, units {tally.units}, agree {tally.agree}, differ {tally.differ}"
        )
    if "samples" not in skip:
        tally = run_sample_games(get_rules("2000"))
        lines = report_games(
            "3. MILA's sample games (diplomacy/tests/network/{1,2,3}.json), recorded results", tally, args.examples
        )
        print("\n".join(lines))
        totals.append(
            f"sample games: phases {tally.phases}, units {tally.units}, agree {tally.agree}, differ {tally.differ}"
        )
    print()
    print("=" * 100)
    print("Categories: when MILA gives its word, and what fogdip does")
    print("=" * 100)
    import textwrap

    for status, heading in (("follows", "MILA's meanings fogdip follows"), ("keeps", "documented differences")):
        print(f"-- {heading}")
        for name, category in CATEGORIES.items():
            if name == "other" or category.status != status:
                continue
            print(f"[{name}] {category.title}")
            print(textwrap.fill("MILA: " + category.mila, 110, initial_indent="    ", subsequent_indent="      "))
            print(textwrap.fill("fogdip: " + category.fogdip, 110, initial_indent="    ", subsequent_indent="      "))
    print()
    print("\n".join(totals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
