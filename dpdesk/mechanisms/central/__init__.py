"""Central differential privacy: exact discrete noise, noisy statistics, accuracy.

Noise is drawn only by OpenDP's exact samplers (:mod:`.noise`). Every statistic returns a
:class:`Release` carrying its privacy cost as accounting events
(:mod:`dpdesk.mechanisms.accounting`). Neighbouring relation: add or remove one row.
"""

__all__ = [
    "laplace_counts", "gaussian_counts", "Release",
    "count", "histogram", "crosstab", "sum", "mean", "quantile", "median",
    "accuracy", "postprocess", "ratio",
]

_LAZY = {  # loaded on first use, so that reading a request does not import numpy or OpenDP
    "laplace_counts": "noise", "gaussian_counts": "noise", "Release": "release",
    "count": "tabulate", "histogram": "tabulate", "crosstab": "tabulate",
    "sum": "numeric", "mean": "numeric", "quantile": "quantiles", "median": "quantiles",
}


def __getattr__(name):
    import importlib

    if name in _LAZY:
        mod = importlib.import_module(f"dpdesk.mechanisms.central.{_LAZY[name]}")
        return getattr(mod, name)
    if name in ("accuracy", "postprocess", "tabulate", "numeric", "quantiles", "ratio"):
        return importlib.import_module(f"dpdesk.mechanisms.central.{name}")
    raise AttributeError(name)
