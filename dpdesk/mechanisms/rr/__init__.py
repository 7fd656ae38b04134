"""The randomized-response engine: designs as matrices, estimation over counts.

>>> from dpdesk.mechanisms import rr
>>> coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
>>> rr.estimate(coin, [25, 75]).prevalence   # 75% "yes" under the coin design
1.0
"""

import importlib
import sys
import types

from dpdesk.lazy import exports

#: Each public name and its module: importing ``rr`` costs nothing, ``rr.Design`` needs only
#: numpy, and scipy is loaded with the first estimate (the app shows designs without it).
_PUBLIC = {
    **dict.fromkeys(("DESIGN_NAMES", "Design", "design", "matrix_epsilon", "unary_multiselect_epsilon"),
                    "dpdesk.mechanisms.rr.design"),
    **dict.fromkeys(("CI_METHODS", "Estimate", "GoodnessOfFit", "estimate"), "dpdesk.mechanisms.rr.estimate"),
    **dict.fromkeys(("LogisticFit", "logistic"), "dpdesk.mechanisms.rr.regression.logistic"),
    **dict.fromkeys(("LinearFit", "linear"), "dpdesk.mechanisms.rr.regression.linear"),
    **dict.fromkeys(("Correlations", "correlation"), "dpdesk.mechanisms.rr.regression.correlation"),
    **dict.fromkeys(("efficiency", "expected_halfwidth", "power", "required_n", "required_n_for_power"),
                    "dpdesk.mechanisms.rr.planning.sample_size"),
    **dict.fromkeys(("expected_counts", "simulate", "simulate_responses"), "dpdesk.mechanisms.rr.planning.simulate"),
    **dict.fromkeys(("compare", "compare_direct", "estimate_by"), "dpdesk.mechanisms.rr.subgroups"),
    **dict.fromkeys(("SurveyEstimate", "survey_estimate"), "dpdesk.mechanisms.rr.survey.estimate"),
    "survey_estimate_by": "dpdesk.mechanisms.rr.survey.by_group",
    "survey_compare_direct": "dpdesk.mechanisms.rr.survey.direct",
}
_public = exports(__name__, _PUBLIC)


def __getattr__(name: str):
    if name == "randomizers":  # a module of its own
        return importlib.import_module(f"{__name__}.randomizers")
    value = globals()[name] = _public(name)  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """``rr.design``, ``rr.estimate``, ``rr.simulate`` and ``rr.logistic`` stay the functions: the
    import system sets a package's attribute to each submodule it loads, which here has the
    same name as the function it defines (the submodules stay in ``sys.modules``)."""

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, types.ModuleType) and _PUBLIC.get(name) == value.__name__:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "CI_METHODS",
    "DESIGN_NAMES",
    "Design",
    "Estimate",
    "LogisticFit",
    "LinearFit",
    "GoodnessOfFit",
    "Correlations",
    "compare",
    "compare_direct",
    "correlation",
    "design",
    "efficiency",
    "estimate",
    "estimate_by",
    "expected_counts",
    "expected_halfwidth",
    "linear",
    "logistic",
    "matrix_epsilon",
    "power",
    "randomizers",
    "required_n",
    "required_n_for_power",
    "simulate",
    "simulate_responses",
    "survey_compare_direct",
    "survey_estimate",
    "survey_estimate_by",
    "SurveyEstimate",
    "unary_multiselect_epsilon",
]
