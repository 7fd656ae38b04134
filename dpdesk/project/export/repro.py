"""The reproducibility script: a short Python file that recomputes every estimate.

A bundle with weighted (design-based) items does the same for them: the script refits
each with ``dpdesk.project.analysis.estimates.refit_survey`` (the stored rows, the survey design
recorded at export, the same subgroups, interval and confidence) and checks every
estimate, SE and interval against the exported ones (``TOLERANCE``, relative; exit
status 1 on a MISMATCH). A bundle with regressions (``regression_export``) also refits each of them from the
project file with ``dpdesk.project.regression.regress`` and checks the log-likelihood (of a weighted
fit: its pseudo-log-likelihood, named so, since it is no likelihood) and
every coefficient, SE and interval against the exported ones (``TOLERANCE``, relative);
without the project file a regression cannot be refitted (it needs the rows), and says so.

First, when the project file is at hand (the path recorded at export, or the script's
first argument), the script opens it with dpdesk's API (read-only use, shared), checks
the data fingerprint of the analysed columns, counts every item again from the stored
rows with the mapping recorded at export (``analysis.rebuild_counts``: column, codes,
group codes, subgroup column) and stops with exit status 1 if any count differs from the
exported one. Then it imports ``from dpdesk.mechanisms import rr``, rebuilds each design
with ``rr.design(name, **params)``, calls ``rr.estimate(design, counts, confidence=...,
ci=...)`` on the counts (overall and per subgroup) and prints a table. Nothing
from the data file is written as code: every name, label and value is embedded as a
Python literal made by ``repr()`` of a plain str/int/float/list/dict, so an item called
``'); import os; os.system('...`` stays a harmless string, and the printed labels
have non-printable characters replaced (no terminal escape sequences).
"""

from __future__ import annotations

import math
import os
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpdesk.project.export.model import ExportError, ResultsBundle, atomic_write

_CLOSE = '''def _close(a, b):
    """Equal within TOLERANCE (relative to the size of the number); None (an open interval) only equals None."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


'''

_SURVEY_CHECK = '''def check_surveys(project_file):
    """Refit every weighted (design-based) item from the stored rows and design; exit 1 if a figure differs."""
    import os

    if not project_file or not os.path.exists(project_file):
        print("Project file", clean(project_file), "not found: the weighted estimates cannot be refitted (they "
              "need the respondents' rows and survey design; give the project file's path as the first argument).")
        return False
    from dpdesk.project import Project
    from dpdesk.project.analysis.estimates import refit_survey

    problems = []
    with Project.open(project_file, shared=True) as project:
        for spec in SURVEYS:
            print(f"Weighted estimates of {clean(spec['item'])}, refitted with the survey design "
                  f"{clean(spec['survey_design'])}:")
            try:
                got = refit_survey(project, spec)
            except Exception as exc:  # a message in words from dpdesk (a changed project, a missing column)
                problems.append(f"{clean(spec['item'])}: {clean(exc)}")
                continue
            if [row[:2] for row in got] != [row[:2] for row in spec["figures"]]:
                problems.append(f"{clean(spec['item'])}: the refitted subgroups or categories differ from the exported")
                continue
            for row, exported in zip(got, spec["figures"]):
                print(f"  {clean(row[0])[:16]:<16} {clean(row[1])[:12]:<12} " +
                      " ".join(f"{v:>10.6f}" if v is not None else f"{'n/a':>10}" for v in row[2:]))
                for what, g, e in zip(("estimate", "SE", "CI low", "CI high"), row[2:], exported[2:]):
                    if not _close(g, e):
                        problems.append(f"{clean(spec['item'])} {clean(row[0])} {clean(row[1])}: {what} is {g}, "
                                        f"exported {e}")
    if problems:
        for p in problems:
            print("MISMATCH:", p)
        raise SystemExit(1)
    print(f"{len(SURVEYS)} weighted item(s) refitted from the stored data and survey design agree with the exported "
          f"estimates (tolerance {TOLERANCE:g}).")
    return True


'''

_REGRESSION_CHECK = '''def check_regressions(project_file):
    """Refit every exported regression on the stored data; exit 1 if a coefficient differs."""
    import math
    import os

    if not project_file or not os.path.exists(project_file):
        print("Project file", clean(project_file), "not found: the regressions cannot be refitted (they need the "
              "respondents' rows; give the project file's path as the first argument).")
        return False
    from dpdesk.project import Project
    from dpdesk.project.regression import regress

    problems = []
    with Project.open(project_file, shared=True) as project:
        for spec in REGRESSIONS:
            model = spec.get("model", "logistic")
            options = dict(reference=spec["reference"], interactions=spec["interactions"], center=spec["center"],
                           categorical=spec["categorical"], confidence=spec["confidence"], dataset=spec["dataset"],
                           **({"numeric": spec["numeric"]} if spec.get("numeric") else {}))
            if model == "linear":  # RR items as predictors of a numeric column (RRlin)
                from dpdesk.project.regression.rr_models import linear_regression

                result = linear_regression(project, spec["outcome"], spec["rr_items"], spec["predictors"], **options)
                spec = dict(spec, item=spec["outcome"])
            elif model == "multilevel":  # a random intercept per cluster (RRmixed)
                result = regress(project, spec["item"], spec["predictors"], cluster=spec["cluster"],
                                 nagq=spec["nagq"], **options)
            else:
                result = regress(project, spec["item"], spec["predictors"], **options)
            fit = result.fit
            # a weighted (design-based) fit maximises a pseudo-likelihood: its value is no log-likelihood to report
            weighted = getattr(fit, "df", None) is not None
            objective = "log-likelihood" if not weighted else "weighted pseudo-log-likelihood (not a likelihood)"
            if model == "multilevel":
                objective = "marginal log-likelihood"
            print(f"Regression of {clean(spec['item'])}: refitted on {fit.n} rows, {objective} {fit.loglik:.6f} "
                  f"(exported {spec['loglik']:.6f})")
            print(f"  {'term':<28} {'b':>10} {'SE':>10} {'CI low':>10} {'CI high':>10}")
            if [c.name for c in fit.coefficients] != [row[0] for row in spec["coefficients"]]:
                problems.append(f"{clean(spec['item'])}: the refitted model has other terms")
                continue
            if not _close(fit.loglik, spec["loglik"]):
                problems.append(f"{clean(spec['item'])}: {objective} {fit.loglik} differs from {spec['loglik']}")
            for c, (term, b, se, low, high) in zip(fit.coefficients, spec["coefficients"]):
                got = [c.estimate, c.se] + [v if math.isfinite(v) else None for v in c.ci]
                print(f"  {clean(term)[:28]:<28} {c.estimate:>10.6f} {c.se:>10.6f} {c.ci[0]:>10.6f} {c.ci[1]:>10.6f}")
                for what, g, e in zip(("b", "SE", "CI low", "CI high"), got, (b, se, low, high)):
                    if not _close(g, e):
                        problems.append(f"{clean(spec['item'])}: {what} of {clean(term)} is {g}, exported {e}")
    if problems:
        for p in problems:
            print("MISMATCH:", p)
        raise SystemExit(1)
    print(f"{len(REGRESSIONS)} regression(s) refitted from the stored data agree with the exported coefficients "
          f"(tolerance {TOLERANCE:g}).")
    return True


'''

_CORRELATION_CHECK = '''def check_correlations(project_file):
    """Recompute every exported set of corrected correlations (same resamples, same seed); exit 1 if one differs."""
    import math
    import os

    if not project_file or not os.path.exists(project_file):
        print("Project file", clean(project_file), "not found: the correlations cannot be recomputed (they need the "
              "respondents' rows; give the project file's path as the first argument).")
        return False
    from dpdesk.project import Project
    from dpdesk.project.regression.rr_models import correlations

    problems = []
    with Project.open(project_file, shared=True) as project:
        for spec in CORRELATIONS:
            fit = correlations(project, spec["names"], bootstrap=spec["bootstrap"], seed=spec["seed"],
                               dataset=spec["dataset"]).fit
            names = [clean(n) for n in spec["names"]]
            print(f"Correlations of {', '.join(names)}: recomputed on {fit.n} rows, {spec['bootstrap']} resamples")
            for what, got, exported in (("r", fit.r, spec["r"]), ("SE", fit.se, spec["se"])):
                for i, row in enumerate(exported):
                    for j, e in enumerate(row):
                        g = float(got[i][j])
                        g = g if math.isfinite(g) else None
                        if i != j and not _close(g, e):
                            problems.append(f"{what} of {names[i]} and {names[j]} is {g}, exported {e}")
    if problems:
        for p in problems:
            print("MISMATCH:", p)
        raise SystemExit(1)
    print(f"{len(CORRELATIONS)} set(s) of correlations recomputed from the stored data agree with the exported "
          f"ones (tolerance {TOLERANCE:g}).")
    return True


'''

_HEADER = '''#!/usr/bin/env python3
# Recompute the randomized-response estimates exported by dpdesk from the response counts.
# Run it with a Python that has dpdesk installed:  python {script}
# The counts, designs and options below were copied from the project when it was exported.
from dpdesk.mechanisms import rr

RESULTS_FILE = {results}
DPDESK_VERSION = {version}
# Where the counts came from: the project file, its dataset, the fingerprint of the analysed columns.
PROJECT_FILE = {project}
DATASET = {dataset}
FINGERPRINT = {fingerprint}
FINGERPRINT_COLUMNS = {fp_columns}
# For the reviewer: how the data were read, how each item was mapped (and what was left out,
# and why), and the interval method with its source.
REVIEW = {review}
'''

_FOOTER = '''

def clean(text):
    """Printable text only (labels come from a data file)."""
    return "".join(ch if ch.isprintable() else "?" for ch in str(text))


def rows_of(result):
    """(category, estimate, SE, CI low, CI high): one row for yes/no items, else one per category."""
    if result.frequencies is None:
        low, high = result.ci
        return [("", result.prevalence, result.se, low, high)]
    return [(name, result.frequencies[k], result.se[k], result.ci[k][0], result.ci[k][1])
            for k, name in enumerate(result.design.categories)]


def check_against_data(project_file):
    """Count the stored data again with the recorded mappings; exit 1 if any count differs."""
    import os

    if not project_file or not os.path.exists(project_file):
        print("Project file", clean(project_file), "not found: the estimates below use the exported counts only.")
        print("(Give the project file's path as the first argument to check the counts against the data.)")
        return False
    from dpdesk.project import Project
    from dpdesk.project.analysis.estimates import rebuild_counts, stored_table
    from dpdesk.project.people.fingerprint import data_fingerprint

    problems = []
    with Project.open(project_file, shared=True) as project:
        if FINGERPRINT:
            found = data_fingerprint(stored_table(project, DATASET).frame, FINGERPRINT_COLUMNS)
            if found != FINGERPRINT:
                problems.append("the data fingerprint differs: the stored rows are not those that were analysed")
        for item, mapping, by, counts, subgroups in CHECKS:
            got, got_by = rebuild_counts(project, item, mapping, dataset=DATASET, by=by)
            if got != counts:
                problems.append(f"{clean(item)}: counts from the data {got} differ from the exported {counts}")
            if by and got_by != subgroups:
                problems.append(f"{clean(item)}: subgroup counts from the data differ from the exported ones")
    if problems:
        for p in problems:
            print("MISMATCH:", p)
        raise SystemExit(1)
    print(f"Counts of {len(CHECKS)} item(s) rebuilt from the stored data ({clean(DATASET)}) and the "
          "recorded mappings agree with the exported counts; the data fingerprint agrees.")
    return True


def main(argv=()):
    print("Results file:", clean(RESULTS_FILE))
    for key in ("CI method", "CI method citation"):
        if key in REVIEW:
            print(f"{key}:", clean(REVIEW[key]))
    if CHECKS:
        check_against_data(argv[0] if argv else PROJECT_FILE)
    # REGRESSION CHECK
    if not ANALYSES:
        return
    print(f"{'item':<24} {'subgroup':<16} {'category':<12} {'n':>7} {'estimate':>10} {'SE':>10} "
          f"{'CI low':>10} {'CI high':>10}  CI method")
    for item, subgroup, design, counts, confidence, ci in ANALYSES:
        result = rr.estimate(design, counts, confidence=confidence, ci=ci)
        for category, value, se, low, high in rows_of(result):
            print(f"{clean(item)[:24]:<24} {clean(subgroup)[:16]:<16} {clean(category)[:12]:<12} {result.n:>7} "
                  f"{value:>10.6f} {se:>10.6f} {low:>10.6f} {high:>10.6f}  {clean(result.ci_method)}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
'''


def literal(value: Any, where: str = "value") -> str:
    """Python source for ``value`` built only from safe literals (``repr`` of plain types)."""
    # The base types' own __repr__, so a subclass (numpy.float64, a str subclass) cannot
    # change the text that becomes code.
    if value is None or isinstance(value, bool):
        return repr(None if value is None else bool(value))
    if isinstance(value, str):
        return str.__repr__(value)
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return float.__repr__(value)
    if isinstance(value, (Fraction, Decimal)):
        return literal(float(value), where)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v, where) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(str(k), where)}: {literal(v, where)}" for k, v in value.items()) + "}"
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars
    if callable(tolist):
        return literal(tolist(), where)
    raise ExportError(
        f"Cannot write the reproducibility script: the {where} has a value of type "
        f"{type(value).__name__} ({value!r:.60}). Use numbers, text, lists or dicts."
    )


REVIEW_KEYS = ("dataset", "input file", "input SHA-256", "import options", "item mappings", "CI method",
               "CI method citation", "confidence", "subgroups by", "warnings")


def _review(meta: dict) -> dict:
    """The reviewer's part of the metadata, as plain literals."""
    from dpdesk.project.export.model import _jsonable

    return {k: _jsonable(meta[k]) for k in REVIEW_KEYS if k in meta}


def _design_call(design: str, params: dict[str, Any], where: str) -> str:
    names = [str(k) for k in params]
    if all(n.isidentifier() and not n.startswith("_") for n in names) and "name" not in names:
        args = "".join(f", {n}={literal(v, where)}" for n, v in params.items())
        return f"rr.design({literal(str(design))}{args})"
    return f"rr.design({literal(str(design))}, **{literal(dict(params), where)})"


def repro_script_text(bundle: ResultsBundle, results_file: str = "results", script_name: str = "reproduce.py") -> str:
    """The source of the reproducibility script for ``bundle.repro``."""
    from dpdesk import __version__

    items = bundle.repro or []
    regressions = bundle.regressions or []
    surveys = bundle.surveys or []
    correlations = bundle.correlations or []
    if not items and not regressions and not surveys and not correlations:
        raise ExportError("There is nothing to reproduce: the results carry no counts and designs.")
    version = bundle.metadata.get("app version", bundle.metadata.get("dpdesk version", __version__))
    script = "".join(ch if ch.isprintable() else "?" for ch in os.path.basename(script_name))
    meta = bundle.metadata
    needs_rows = any(e.mapping for e in items) or regressions or surveys or correlations
    project = (bundle.project_file or meta.get("project")) if needs_rows else None
    out = [_HEADER.format(script=script, results=literal(str(results_file)),
                          version=literal(str(version)), project=literal(None if project is None else str(project)),
                          dataset=literal(meta.get("dataset")),
                          fingerprint=literal(meta.get("data fingerprint (SHA-256)")),
                          fp_columns=literal(list(meta.get("data fingerprint columns") or []), "fingerprint columns"),
                          review=literal(_review(meta), "review metadata"))]
    out.append("# Each check: (item, mapping recorded at export, subgroup column, counts, subgroup counts).")
    out.append("CHECKS = []")
    out.append("# Each analysis: (item, subgroup, design, counts, confidence, CI method).")
    out.append("ANALYSES = []")
    for number, entry in enumerate(items, start=1):
        where = f"design parameters of item {number}"
        out.append("")
        out.append(f"# Item {number}")
        out.append(f"item = {literal(str(entry.item))}")
        out.append(f"design = {_design_call(entry.design, dict(entry.params or {}), where)}")
        options = f"{literal(float(entry.confidence))}, {literal(str(entry.ci))}"
        out.append(f"ANALYSES.append((item, '(all)', design, {literal(entry.counts, 'counts')}, {options}))")
        for label, counts in (entry.subgroups or {}).items():
            out.append(
                f"ANALYSES.append((item, {literal(str(label))}, design, {literal(counts, 'counts')}, {options}))"
            )
        if entry.mapping:
            subgroups = {str(k): v for k, v in (entry.subgroups or {}).items()}
            out.append(f"CHECKS.append((item, {literal(dict(entry.mapping), 'mapping')}, "
                       f"{literal(entry.by)}, {literal(entry.counts, 'counts')}, {literal(subgroups, 'counts')}))")
    out.append("")
    out.append("# Each regression: the model as dpdesk.project.regression.regress takes it, and the exported")
    out.append("# coefficients [term, b, SE, CI low, CI high] that refitting it on the stored rows must give.")
    out.append("TOLERANCE = 1e-06")
    out.append(f"REGRESSIONS = {literal(list(regressions), 'regressions')}")
    if surveys:
        out.append("# Each weighted item: how analysis.refit_survey estimates it again from the stored rows and survey")
        out.append("# design, and the exported figures [subgroup, category, estimate, SE, CI low, CI high] it must give.")
        out.append(f"SURVEYS = {literal(list(surveys), 'weighted items')}")
    if correlations:
        out.append("# Each set of correlations: the variables, the bootstrap and its seed, and the exported r and SE")
        out.append("# (k x k, None where undefined) that recomputing them on the stored rows must give.")
        out.append(f"CORRELATIONS = {literal(list(correlations), 'correlations')}")
    footer = _FOOTER
    checks, calls = "", ""
    if regressions or surveys or correlations:  # only then: a script without them calls nothing more than before
        checks += _CLOSE
    if surveys:
        checks += _SURVEY_CHECK
        calls += "    if SURVEYS:\n        check_surveys(argv[0] if argv else PROJECT_FILE)\n"
    if regressions:
        checks += _REGRESSION_CHECK
        calls += "    if REGRESSIONS:\n        check_regressions(argv[0] if argv else PROJECT_FILE)\n"
    if correlations:
        checks += _CORRELATION_CHECK
        calls += "    if CORRELATIONS:\n        check_correlations(argv[0] if argv else PROJECT_FILE)\n"
    footer = footer.replace("\ndef main(argv=()):", "\n" + checks + "def main(argv=()):")
    footer = footer.replace("    # REGRESSION CHECK\n", calls)
    out.append(footer)
    return "\n".join(out)


def write_repro_script(bundle: ResultsBundle, path: str | os.PathLike, *, results_file: str | None = None) -> Path:
    """Write the reproducibility script to ``path`` atomically; return the path."""
    path = Path(path)
    text = repro_script_text(bundle, results_file or path.stem, path.name)
    compile(text, str(path), "exec")  # a script that does not compile is never written

    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())

    return atomic_write(path, write)
