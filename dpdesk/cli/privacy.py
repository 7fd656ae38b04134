"""Commands for noisy tabulation: budget, release, ledger (see docs/guide/central-dp.md)."""

from __future__ import annotations

import dataclasses
import sys
import json
import math
from fractions import Fraction

from dpdesk.errors import BudgetError, DpdeskError


class ExportError(DpdeskError, ValueError):
    """A release cannot be exported as asked (no such release, an unknown file type)."""


def register(sub) -> None:
    p = sub.add_parser("budget", help="show or set the privacy budget of the data",
                       description="Show the privacy budget of a dataset's data (total, spent, left), or set it "
                       "with --set. A budget is set once and can then only be lowered; it stays with the data, "
                       "also when the same file is imported again.")
    p.add_argument("project")
    p.add_argument("--set", dest="epsilon", metavar="EPS", help="total epsilon (e.g. 1); a smaller value lowers it")
    p.add_argument("--delta", metavar="D", help="total delta (e.g. 1e-6; default 0: pure epsilon)")
    p.add_argument("--dataset", help="dataset name (default: the latest import)")
    p.add_argument("--json", action="store_true", help="print the budget as JSON")
    p.set_defaults(func=cmd_budget)

    p = sub.add_parser("release", help="release a noisy statistic and record it in the ledger",
                       description="Release a count, histogram, cross-tab, sum, mean or median with calibrated "
                       "noise, spending privacy budget. Keys, bins and bounds are public: declare them, they are "
                       "never read from the data. The same request again shows the recorded result at no cost. "
                       "Example: dpdesk release P.dpdesk --stat histogram --columns region --keys north south "
                       "--epsilon 0.1")
    p.add_argument("project")
    p.add_argument("--stat", required=True, choices=["count", "histogram", "crosstab", "sum", "mean", "median"])
    p.add_argument("--columns", nargs="+", default=[], metavar="COLUMN",
                   help="the column(s): none for a count, two for a cross-tab")
    p.add_argument("--keys", nargs="+", action="append", metavar="KEY",
                   help="categories of a column (repeat for the second column of a cross-tab)")
    p.add_argument("--bins", nargs="+", action="append", metavar="EDGE",
                   help="numeric bin edges of a column (or the candidate values of a median); in a cross-tab "
                   "with --keys and --bins, the keys belong to the first column")
    p.add_argument("--bounds", nargs=2, metavar=("LO", "HI"), help="clipping bounds of a sum, mean or median")
    p.add_argument("--resolution", help="grid width of a sum or mean (default: 1/1000 of the largest bound's order)")
    p.add_argument("--by", help="also by subgroups of this column ...")
    p.add_argument("--by-keys", nargs="+", metavar="KEY", help="... with these public subgroup values")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--epsilon", help="privacy cost of this release")
    size.add_argument("--accuracy", help="target half-width: every cell within +-A (at --confidence)")
    size.add_argument("--scale", help="noise scale (sigma for Gaussian noise)")
    p.add_argument("--mechanism", choices=["laplace", "gaussian"], default="laplace")
    p.add_argument("--confidence", default="0.95", help="confidence of the half-width (default 0.95)")
    p.add_argument("--dataset", help="dataset name (default: the latest import)")
    p.add_argument("--preview", action="store_true", help="show the cost and accuracy only; release nothing")
    p.add_argument("--json", action="store_true", help="print the ledger entry as JSON")
    p.add_argument("--export", metavar="FILE", help="also write the released table to FILE (.xlsx or .csv) with its "
                   "noise, cost and what its intervals cover")
    p.set_defaults(func=cmd_release)

    p = sub.add_parser("ledger", help="list every release and check the ledger",
                       description="List every noisy release of the project (time, statistic, cost, result) and "
                       "check its hash chain, its seal and the head this computer last saw: says so when the "
                       "ledger was edited outside dpdesk or the file is an older copy (rolled back), and whether it "
                       "is verified with this computer's key or by structure only.")
    p.add_argument("project")
    p.add_argument("--json", action="store_true", help="print the ledger as JSON")
    p.add_argument("--export", nargs=2, metavar=("SEQ", "FILE"), help="write release number SEQ to FILE "
                   "(.xlsx or .csv; costs nothing: the recorded result, never re-noised)")
    p.add_argument("--accept-rollback", action="store_true",
                   help="confirm that this older copy of the project is the one to go on with (recorded in the "
                   "project); releases are refused until then")
    p.add_argument("--rekey", action="store_true",
                   help="go on with a project sealed with this computer's own ledger key after that key was lost "
                   "(checked against this computer's register, recorded in the project, sealed with the new key)")
    p.add_argument("--note", default="", help="with --accept-rollback or --rekey: why (kept with the record)")
    p.add_argument("--receipt", nargs="?", const="-", metavar="OUT",
                   help="write a receipt of the ledger's head and seal, for a data protection officer to keep: "
                   "OUT.txt as text, OUT.png or OUT.svg as a QR code with OUT.txt beside it (without OUT: printed)")
    p.add_argument("--verify-receipt", metavar="RECEIPT",
                   help="check that the project still holds the history a receipt (its text file) names")
    p.set_defaults(func=cmd_ledger)


# ----------------------------------------------------------------------------- helpers


def _plain(x):
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: _plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


def _num(v) -> str:
    if isinstance(v, (int, float)):
        return f"{v:.6g}" if isinstance(v, float) and not float(v).is_integer() else f"{v:.0f}"
    return str(v)


def _cells(result: dict, rc=None) -> list[tuple[str, object]]:
    """(label, value) for each released cell; with ``rc`` (``release_cells``) the keys in their value labels."""
    keys, values = (rc.key_texts if rc is not None and rc.key_texts else result.get("keys") or []), result.get("values")
    if not keys:
        return [("", values)]
    if len(keys) == 1:
        return [(str(k), v) for k, v in zip(keys[0], values)]
    return [(f"{a} x {b}", v) for a, row in zip(keys[0], values) for b, v in zip(keys[1], row)]


def _cost(entry) -> str:
    """The release's own epsilon, rounded up, with its exact fraction when that is longer."""
    from dpdesk.project.ledger.text import epsilon_text

    try:
        eps, delta = Fraction(entry.cost["epsilon"]), Fraction(entry.cost.get("delta", "0"))
    except (KeyError, ValueError, ZeroDivisionError, TypeError):
        return "cost unreadable"
    from dpdesk.project.ledger.text import number_text

    text = epsilon_text(eps, delta, up=True)
    return text if Fraction(number_text(eps, up=True)) == eps else f"{text} [exactly {eps}]"


def _status_line(status) -> str:
    if status.copies or not status.copies_checked:  # the same people's spending in copies of this project
        return f"Project budget: {status.people_text}."
    return f"Project budget: spent {status.spent_text} of {status.total_text}; left {status.remaining_text}."


def _copies_lines(status) -> list[str]:
    """The spending of copies of this project on this computer, one line per copy (none: no line)."""
    lines = []
    if status.copies or not status.copies_checked:
        lines.append(f"  For these people: {status.people_text}.")
    for path, n, text in status.copies:
        how = ("from the same people (another project, or this file's own releases no longer in its ledger)"
               if path in status.people_files else "after it split from this file")
        lines.append(f"    {path}: {text} in {n} release(s) made there {how}")
    if not status.copies_checked:
        lines.append(f"    The spending of copies could not be checked: {status.copies_unchecked}. Keep every copy "
                     "within what you promised these people.")
    return lines


def _request(args) -> dict:
    req = {"statistic": args.stat, "columns": args.columns, "mechanism": args.mechanism,
           "confidence": args.confidence}
    for name in ("epsilon", "accuracy", "scale", "resolution", "by"):
        if getattr(args, name) is not None:
            req[name] = getattr(args, name)
    if args.by_keys is not None:
        req["by_keys"] = args.by_keys
    if args.bounds is not None:
        req["bounds"] = args.bounds
    keys, bins = args.keys or [], args.bins or []
    if args.stat == "histogram":
        if keys:
            req["keys"] = keys[0]
        if bins:
            req["bins"] = bins[0]
    elif args.stat == "crosstab":
        axes_k, axes_b = list(keys), list(bins)
        req["keys"] = [axes_k.pop(0) if axes_k and (len(keys) == 2 or i == 0 or not bins) else None
                       for i in range(2)]
        req["bins"] = [None if req["keys"][i] is not None else (axes_b.pop(0) if axes_b else None) for i in range(2)]
    elif args.stat == "median" and bins:
        req["bins"] = bins[0]
    elif keys or bins:
        raise BudgetError(f"A {args.stat} takes no --keys or --bins.")
    return req


# ----------------------------------------------------------------------------- commands


def cmd_budget(args) -> int:
    from dpdesk.project import Project, ledger

    # only --set writes: showing the budget opens the file read-only and leaves it untouched
    with Project.open(args.project, read_only=args.epsilon is None) as project:
        if args.epsilon is not None:
            current = ledger.budget_status(project, args.dataset)
            if current is None:
                status = ledger.set_budget(project, args.epsilon, args.delta or 0, dataset=args.dataset)
            else:
                status = ledger.lower_budget(project, args.epsilon, args.delta, dataset=args.dataset)
        else:
            if args.delta is not None:
                raise BudgetError("--delta goes with --set (e.g. --set 1 --delta 1e-6).")
            status = ledger.budget_status(project, args.dataset)
    if args.json:
        print(json.dumps(_plain(status), indent=2, ensure_ascii=False))
        return 0
    if status is None:
        print("No privacy budget is set for this project yet. Set one with: dpdesk budget PROJECT --set 1")
        return 0
    print("Privacy budget of this project (it covers everyone in every dataset of the project)")
    if status.dataset:
        print(f"  active dataset {status.dataset!r} (data SHA-256 {status.dataset_sha256[:12]}...)")
    print(f"  total  {status.total_text}")
    if status.copies:
        print(f"  spent  {status.spent_text} (here {status.spent_here_text} in {status.releases} release(s), in "
              f"copies on this computer {status.copies_text})")
    else:
        print(f"  spent  {status.spent_text} in {status.releases} release(s)")
    print(f"  left   {status.remaining_text}")
    for line in _copies_lines(status):
        print(line)
    if status.total_delta:
        print("  (epsilon at this delta, from the composition of all releases by a privacy-loss-distribution accountant)")
    if not status.ledger_intact:
        print("  WARNING: the ledger was edited outside dpdesk, or this is an older copy of the project; no more "
              "releases are made (see dpdesk ledger).")
    return 0


class _WaitNotice:
    """A release's progress on the command line: one line on stderr when it waits for another release."""

    def __init__(self) -> None:
        self.said = False

    def __call__(self, stage: str) -> None:
        if stage == "waiting" and not self.said:
            self.said = True
            print("Waiting for another release on this computer to finish (its turn comes; nothing is spent "
                  "until then, and Ctrl+C stops waiting)…", file=sys.stderr, flush=True)


def cmd_release(args) -> int:
    from dpdesk.project import Project, ledger

    request = _request(args)
    with Project.open(args.project) as project:
        if args.preview:
            pv = ledger.preview(project, request, dataset=args.dataset)
            if args.json:
                print(json.dumps(_plain(dataclasses.replace(pv, events=tuple(map(repr, pv.events)))), indent=2))
                return 0 if pv.fits else 1
            print(f"Preview (no noise drawn): costs {pv.cost_text}; leaves {pv.remaining_after_text}.")
            if pv.half_width:
                hw = pv.half_width
                print(f"Half-width at {float(Fraction(hw['confidence'])):.0%}: +-{_num(hw['simultaneous'])} for all "
                      f"{hw['cells']} cell(s) at once, +-{_num(hw['per_cell'])} for any one cell.")
            if not pv.fits:
                print(pv.message)
                return 1
            return 0
        shared = ledger.shared_spending(project, args.dataset)  # before: what this file held until now
        entry = ledger.release(project, request, dataset=args.dataset, progress=_WaitNotice())
        status = ledger.budget_status(project, args.dataset)
        shared = [] if entry.replayed else shared
        from dpdesk.project.ledger.release_cells import described, entry_labels, release_cells

        labels = entry_labels(project, entry)
    for warning in shared:  # the same people released from in another project or copy
        print(f"Note: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(_plain(entry), indent=2, ensure_ascii=False))
        return 0
    rc = release_cells(entry, labels)  # in the columns' labels and the value labels
    print(f"{described(entry, labels)} (dataset {entry.dataset!r}, release #{entry.seq})")
    hw = entry.result.get("half_width")
    for label, value in _cells(entry.result, rc):
        pm = f" +- {_num(hw['simultaneous'])}" if hw else ""
        print(f"  {label:<24} {_num(value)}{pm}" if label else f"  {_num(value)}{pm}")
    if hw:
        print(f"  +-: every cell within this half-width of its exact value with probability "
              f"{float(Fraction(hw['confidence'])):.0%} (noise only, before any rounding).")
    elif entry.statistic == "mean":
        for cell in rc.cells:
            if cell.low is not None:
                label = " x ".join(map(str, cell.keys)) or "mean"
                print(f"  {label:<24} interval {_num(cell.low)} to {_num(cell.high)}")
        print(f"  (mean = noisy sum / noisy count, clipped to the bounds; intervals: {rc.coverage})")
    for note in rc.notes:
        if not note.startswith("A mean is"):  # said just above
            print(f"  Note: {note}")
    if getattr(args, "export", None):
        print(f"Wrote {_export(entry, args.export, labels)}.")
    if entry.replayed:
        print(f"Released before, on {entry.time}: shown again at no cost (never re-noised).")
    else:
        print(f"Cost: {_cost(entry)} ({entry.mechanism.replace('_', ' ')} noise).")
    if status is not None:
        print(_status_line(status))
    return 0


def _export(entry, path, labels=None) -> str:
    from dpdesk.project.ledger.release_table import export_release

    if not str(path).lower().endswith((".xlsx", ".csv")):
        raise ExportError(f"Cannot export to {path!r}: give a file name ending in .xlsx or .csv.")
    return str(export_release(entry, path, labels))


def _accept_rollback(args) -> None:
    from dpdesk.project import Project, ledger

    with Project.open(args.project) as project:  # this one writes: the confirmation is recorded
        record = ledger.accept_rollback(project, note=args.note)
    from dpdesk.project.ledger.rewind import confirmed_text

    print(confirmed_text(record))


def _receipt(args) -> int:
    from pathlib import Path

    from dpdesk.project import Project, ledger

    with Project.open(args.project, read_only=True) as project:
        if args.verify_receipt:
            try:
                text = Path(args.verify_receipt).read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise ExportError(f"Cannot read the receipt {args.verify_receipt} ({exc.strerror or exc}).") from exc
            result = ledger.verify_receipt(project, text)
            print(("Receipt verified. " if result.ok else "WARNING: receipt not matched. ") + result.message)
            return 0 if result.ok else 1
        made = ledger.receipt(project)
    if args.receipt == "-":
        print(made.text, end="")
    else:
        print(f"Wrote the receipt {made.save(args.receipt)} (release #{made.releases}, head {made.head}). Send "
              "or print it for someone who keeps it elsewhere.")
        if Path(args.receipt).suffix.lower() in (".png", ".svg"):
            print(f"Its text is beside it, in {Path(args.receipt).with_suffix('.txt')}:")
            print(made.text, end="")
    return 0


def _rekey(args) -> None:
    from dpdesk.project import Project, ledger
    from dpdesk.project.ledger.rewind import confirmed_text

    with Project.open(args.project) as project:  # this one writes: the re-keying is recorded
        record = ledger.rekey(project, note=args.note)
    print(confirmed_text(record))


def cmd_ledger(args) -> int:
    if args.rekey:
        _rekey(args)
    elif args.accept_rollback:
        _accept_rollback(args)
    from dpdesk.project import Project, ledger

    if args.receipt or args.verify_receipt:
        return _receipt(args)
    from dpdesk.project.ledger.release_cells import described, entry_labels, release_cells

    with Project.open(args.project, read_only=True) as project:  # a received file is only read
        entries = ledger.ledger(project)
        check = ledger.verify_ledger(project)
        labels = {e.seq: entry_labels(project, e) for e in entries}
        status = ledger.budget_status(project) if project.datasets() else None
    if args.export:
        seq, path = args.export
        entry = next((e for e in entries if str(e.seq) == seq.lstrip("#")), None)
        if entry is None:
            raise ExportError(f"There is no release #{seq} in {args.project}; `dpdesk ledger {args.project}` lists "
                              "them.")
        print(f"Wrote {_export(entry, path, labels[entry.seq])} (release #{entry.seq}, "
              f"{described(entry, labels[entry.seq])}; costs nothing).")
        return 0
    if args.json:
        print(json.dumps({"intact": check.ok, "problems": check.problems, "rolled_back": check.rollback is not None,
                          "rollback": check.rollback, "verified": check.trust, "verification": check.trust_text,
                          "head": {"releases": check.releases, "hash": check.head, "project_id": check.project_id},
                          "confirmed_rollbacks": check.rollbacks, "releases": _plain(entries),
                          "budget": _plain(status) if status is not None else None},
                         indent=2, ensure_ascii=False))
        return 0 if check.ok else 1
    if not entries:
        print("No releases yet.")
    for e in entries:
        cost = _cost(e)
        shown = _cells(e.result, release_cells(e, labels[e.seq]))
        values = ", ".join(f"{label} {_num(v)}" if label else _num(v) for label, v in shown[:6])
        more = " ..." if len(shown) > 6 else ""
        print(f"#{e.seq}  {e.time}  {described(e, labels[e.seq])}  {cost}  ->  {values}{more}")
    from dpdesk.project.ledger.rewind import listed_text

    for r in check.rollbacks:
        print(listed_text(r))
    if check.ok:
        print(f"Ledger intact: {check.releases} release(s), {check.trust_text}.")
        if check.releases:
            sealed = f", sealed with key id {check.sealed_by}" if check.sealed_by else ""
            print(f"Head: release #{check.releases}, SHA-256 {check.head}{sealed} (compare with the head the "
                  "project's owner sees on their computer).")
        if status is not None:
            print(f"Privacy budget: {status.people_text}.")
            for line in _copies_lines(status)[1:]:
                print(line)
        return 0
    print("WARNING: " + check.message(args.project))
    return 1
