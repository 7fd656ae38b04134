"""Qt work on the GUI thread in steps (dpdesk.gui.shell.steps): progress, result, errors, Cancel; a PDF is
never laid out in a worker (that deadlocked: PySide6 keeps the GIL while Qt takes its signal-slot locks)."""

from __future__ import annotations

import threading

from tests.helpers.pdftext import pdf_text


def test_card_pdf_in_steps_reports_progress_and_its_path(qtbot, tmp_path):
    from dpdesk.gui.shell.steps import StepRunner
    from dpdesk.printing import card_steps

    runner = StepRunner()
    seen = []
    runner.progress.connect(lambda fraction, _text: seen.append(fraction))
    long_text = "\n\n".join(f"Paragraph {i}: roll the die and answer." for i in range(60))  # several A5 pages
    with qtbot.waitSignal(runner.done, timeout=30_000) as done:
        runner.start(card_steps([("Card", long_text)], tmp_path / "card.pdf"))
    assert done.args == [tmp_path / "card.pdf"] and not runner.running
    assert seen and seen == sorted(seen) and all(0 < f < 1 for f in seen) and len(seen) >= 2
    assert "Paragraph 59" in pdf_text((tmp_path / "card.pdf").read_bytes())


def test_cancelled_steps_leave_no_file(qtbot, tmp_path):
    from dpdesk.gui.shell.steps import StepRunner
    from dpdesk.printing import card_steps

    runner = StepRunner()
    with qtbot.waitSignal(runner.progress, timeout=30_000):
        runner.start(card_steps([("Card", "\n\n".join(["Answer truthfully."] * 80))], tmp_path / "card.pdf"))
    runner.cancel()
    assert not runner.running and list(tmp_path.iterdir()) == []


def test_an_error_comes_back_as_failed(qtbot, tmp_path):
    from dpdesk.gui.shell.steps import StepRunner

    def steps():
        yield 0.5
        raise ValueError("the folder is gone")

    runner = StepRunner()
    with qtbot.waitSignal(runner.failed, timeout=5_000) as failed:
        runner.start(steps())
    assert str(failed.args[0]) == "the folder is gone" and not runner.running


def test_a_pdf_is_never_laid_out_in_a_worker(qapp, tmp_path):
    from dpdesk.printing import write_cards

    errors = []

    def worker():
        try:
            write_cards([("Card", "text")], tmp_path / "card.pdf")
        except RuntimeError as exc:
            errors.append(str(exc))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(30)
    assert errors and "GUI thread" in errors[0] and not (tmp_path / "card.pdf").exists()
