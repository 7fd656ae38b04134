"""An OpenDP whose samplers fail the distribution check is refused before it is imported."""

import importlib.metadata

import pytest

from dpdesk.errors import DpdeskError
from dpdesk.mechanisms.central import noise, opendp_version


@pytest.mark.parametrize("version", ["0.12.0", "0.12.1", "0.13.0", "0.14.0", "0.9.2"])
def test_old_opendp_is_refused_with_a_clear_message(version):
    with pytest.raises(opendp_version.OpenDPVersionError) as info:
        opendp_version.check(version)
    message = str(info.value)
    assert version in message and "pip install 'opendp>=0.14.2'" in message
    assert isinstance(info.value, DpdeskError) and isinstance(info.value, ImportError)


@pytest.mark.parametrize("version", ["0.14.2", "0.15.0", "0.16.0", "0.16.0rc1", "1.0"])
def test_tested_opendp_versions_are_accepted(version):
    opendp_version.check(version)


def test_installed_opendp_is_accepted():
    assert opendp_version.parse(opendp_version.require_opendp()) >= opendp_version.MINIMUM


def test_noise_is_refused_when_an_old_opendp_is_installed(monkeypatch):
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.12.0" if name == "opendp" else real(name))
    noise._opendp.cache_clear()
    try:
        with pytest.raises(opendp_version.OpenDPVersionError, match="OpenDP 0.12.0 is installed"):
            noise.laplace_counts([1, 2, 3], 1.0)
    finally:
        noise._opendp.cache_clear()
        noise._measurement.cache_clear()
