"""One example of each of the 14 designs (parameters as ``rr.design`` takes them)."""

EXAMPLES = {
    "warner": dict(p=0.7),
    "forced": dict(p_truth=0.5, p_yes=0.25, p_no=0.25),
    "forced_multi": dict(p_truth=0.7, p_forced=[0.1, 0.1, 0.1], categories=["never", "once", "often"]),
    "unrelated": dict(p_sensitive=0.7, q=0.3),
    "unrelated_unknown": dict(p1=0.3, p2=0.7),
    "crosswise": dict(p=0.25),
    "triangular": dict(p=0.25),
    "kuk": dict(p1=0.7, p2=0.3, draws=3),
    "mangat": dict(p=0.8),
    "sld": dict(p1=0.3, p2=0.7),
    "cdm": dict(p1=0.3, p2=0.7),
    "krr": dict(categories=["a", "b", "c"], epsilon=1.0),
    "unary": dict(categories=["a", "b", "c"], epsilon=1.0, variant="oue"),
    "custom": dict(matrix=[[0.9, 0.2], [0.1, 0.8]]),
}
