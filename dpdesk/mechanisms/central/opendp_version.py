"""Refuse an OpenDP whose samplers are known to draw from the wrong distribution.

OpenDP 0.12.0, 0.12.1, 0.13.0, 0.14.0 and 0.14.1 draw discrete Laplace and discrete Gaussian
noise that fails dpdesk's chi-square check at scales that are not powers of two (Laplace scale 3:
X^2 of 1150-1360 on 40 df over 200,000 draws, p < 1e-200; Gaussian sigma 2: 1100-1260 on 14 df);
0.14.2, 0.15.0 and 0.16.0 pass (:mod:`.sampler_check`, ``benchmarks/samplers.py``).
Noise that does not follow the distribution the accountant charges for is not differentially
private as claimed, so dpdesk stops before it imports such an OpenDP at all.

The check reads the installed distribution's version (``importlib.metadata``), which costs a
few milliseconds and never loads OpenDP's library. It runs once, when noise is first needed.
"""

from __future__ import annotations

import re

from dpdesk.errors import DpdeskError

#: The oldest OpenDP whose samplers pass :mod:`.sampler_check` (0.14.2 passes; 0.14.1 fails).
MINIMUM = (0, 14, 2)
_MINIMUM_TEXT = ".".join(map(str, MINIMUM))


class OpenDPVersionError(DpdeskError, ImportError):
    """The installed OpenDP is missing, unidentifiable or too old to be trusted with noise."""


def parse(version: str) -> tuple[int, int, int]:
    """``"0.14.2"`` -> (0, 14, 2); pre-release and local suffixes are ignored (``0.15.0rc1`` -> 0.15.0)."""
    match = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?", version)
    if match is None:
        raise OpenDPVersionError(f"OpenDP reports the version {version!r}, which dpdesk cannot read. "
                                 f"Install OpenDP {_MINIMUM_TEXT} or newer: pip install 'opendp>={_MINIMUM_TEXT}'.")
    return int(match[1]), int(match[2]), int(match[3] or 0)


def check(version: str) -> None:
    """Raise :class:`OpenDPVersionError` unless ``version`` is at least :data:`MINIMUM`."""
    if parse(version) < MINIMUM:
        raise OpenDPVersionError(
            f"OpenDP {version} is installed, but its discrete Laplace and Gaussian samplers do not follow "
            f"their documented distributions (dpdesk's chi-square check fails for OpenDP older than "
            f"{_MINIMUM_TEXT}), so dpdesk will not draw privacy noise with it. "
            f"Upgrade it: pip install 'opendp>={_MINIMUM_TEXT}' (or reinstall dpdesk, which pins a tested version).")


def require_opendp() -> str:
    """Check the installed OpenDP before it is imported; return its version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("opendp")
    except PackageNotFoundError:
        raise OpenDPVersionError(
            "OpenDP is not installed (or its package metadata is missing, so dpdesk cannot tell which "
            f"version it is). Install it: pip install 'opendp>={_MINIMUM_TEXT}'.") from None
    check(installed)
    return installed
