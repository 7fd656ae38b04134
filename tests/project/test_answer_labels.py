"""Codes matched to the respondent's words; a mapping that contradicts the file's labels is refused."""

import pandas as pd
import pytest

from dpdesk.errors import DataError
from dpdesk.mechanisms import rr
from dpdesk.project import map_item
from dpdesk.project.mapping.answer_labels import conflicts, suggest

CROSSWISE = rr.design("crosswise", p=0.25)


def test_codes_keyed_by_the_respondents_words():
    frame = pd.DataFrame({"q": ["same"] * 3 + ["different"] * 7})
    report = map_item(frame, "q", {"different": ["different"], "same": ["same"]}, design=CROSSWISE)
    assert report.responses == ("no", "yes") and report.counts == [7, 3]
    assert report.labels == ("The answers are different", "Both answers are the same")
    assert report.label("yes") == "Both answers are the same"


def test_inverting_a_crosswise_mapping_is_refused_before_any_estimate():
    """The bug of issue 13: "different" mapped to the recorded "yes" gave 90.4% instead of 9.6%."""
    frame = pd.DataFrame({"q": ["Both answers are the same"] * 70 + ["The answers are different"] * 230})
    with pytest.raises(DataError, match="would be inverted") as err:
        map_item(frame, "q", {"yes": ["The answers are different"], "no": ["Both answers are the same"]},
                 design=CROSSWISE)
    assert "'Both answers are the same'" in str(err.value)
    right = map_item(frame, "q", {"yes": ["Both answers are the same"], "no": ["The answers are different"]},
                     design=CROSSWISE)
    assert right.counts == [230, 70]


def test_value_labels_from_the_file_are_checked_too():
    frame = pd.DataFrame({"q": [1, 2, 2, 1, 2]})
    labels = {1: "same", 2: "different"}
    with pytest.raises(DataError, match=r"the code 1 \(labelled 'same' in the file\)"):
        map_item(frame, "q", {"no": [1], "yes": [2]}, value_labels=labels, design=CROSSWISE)
    assert map_item(frame, "q", {"no": [2], "yes": [1]}, value_labels=labels, design=CROSSWISE).counts == [3, 2]
    # without the design the old behaviour stays (no words to check against)
    assert map_item(frame, "q", {"no": [1], "yes": [2]}, value_labels=labels).counts == [2, 3]


def test_suggestions_use_labels_translations_and_never_guess_yes_for_crosswise():
    assert suggest(CROSSWISE, "Both answers are the same") == "yes"
    assert suggest(CROSSWISE, 1, "gleich") == "yes" and suggest(CROSSWISE, " DIFFERENT ") == "no"
    assert suggest(CROSSWISE, "Yes") is None and suggest(CROSSWISE, 1) is None
    forced = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    assert suggest(forced, "Ja") == "yes" and suggest(forced, 2, "No") == "no"
    tri = rr.design("triangular", p=0.25)
    assert suggest(tri, "at least one 'yes'") == "yes" and suggest(tri, "Both no") == "no"
    kuk = rr.design("kuk", p1=0.7, p2=0.3, draws=2)
    assert suggest(kuk, "2 red cards") == "2 red"


def test_a_yes_code_on_a_crosswise_item_is_not_a_conflict():
    assert conflicts(CROSSWISE, {"yes": ["Yes"], "no": ["No"]}) == []


def test_a_user_missing_code_can_be_counted_as_an_answer():
    frame = pd.DataFrame({"q": [1, 0, 98, 98, 99]})
    left_out = map_item(frame, "q", {"no": [0], "yes": [1]}, missing_codes=[98, 99])
    assert left_out.ok and left_out.counts == [1, 1] and left_out.n_missing == 3
    counted = map_item(frame, "q", {"no": [0], "yes": [1, 98]}, missing_codes=[98, 99])
    assert counted.counts == [1, 3] and counted.n_missing == 1


def test_results_report_what_was_left_out_and_the_labels(tmp_path):
    from dpdesk.project import Project
    from dpdesk.project.analysis.estimates import analyze, results_bundle
    from dpdesk.project.example import example_folder
    from dpdesk.project.reading.importing import import_file

    with Project.create(tmp_path / "p.dpdesk") as project:
        import_file(project, example_folder() / "students.csv", name="students")
        project.add_item("plagiarism", CROSSWISE, column="plag_cw", codes={"no": ["different"], "yes": ["same"]},
                         question="Have you ever handed in copied work?")
        (r,) = analyze(project)
        assert r.estimate is not None and r.mapping.n_missing == 286  # the direct-question group: blank
        assert r.left_out_sentence() == (f"Have you ever handed in copied work?: {r.estimate.n:,} answers used; "
                                         "286 left out: 286 blank.")  # named by its question
        meta = results_bundle(project, [r]).metadata
        assert meta["response labels"]["plagiarism"] == {"no": "The answers are different",
                                                         "yes": "Both answers are the same"}
        assert meta["answers left out"]["plagiarism"] == "286 left out: 286 blank"
        # a stored mapping inverted against the data's own words stops the item instead of a wrong number
        project.update_item("plagiarism", codes={"yes": ["different"], "no": ["same"]})
        (bad,) = analyze(project)
        assert bad.estimate is None and "would be inverted" in bad.error
