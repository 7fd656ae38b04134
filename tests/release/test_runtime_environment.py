"""The bundle's environment hook (packaging/rthooks/environment.py): Wayland falls back to xcb with a
message, and child programs get the user's LD_LIBRARY_PATH back."""

import io
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOOK = runpy.run_path(str(ROOT / "packaging" / "rthooks" / "environment.py"), run_name="environment_hook")


@pytest.fixture
def bundle(tmp_path):
    (tmp_path / "PySide6" / "Qt" / "plugins" / "platforms").mkdir(parents=True)
    return tmp_path


@pytest.mark.parametrize("original, current, expected", [
    ("/usr/local/lib", "/app/_internal:/usr/local/lib", "/usr/local/lib"),  # bootloader saved the user's value
    (None, "/app/_internal", None),                                        # the user had none
    (None, "/app/_internal:/home/me/lib", "/home/me/lib"),
    (None, None, None),
])
def test_library_path_of_the_user_is_restored_for_children(original, current, expected):
    env = {}
    if original is not None:
        env["LD_LIBRARY_PATH_ORIG"] = original
    if current is not None:
        env["LD_LIBRARY_PATH"] = current
    HOOK["restore_library_path"](env, "/app/_internal")
    assert env.get("LD_LIBRARY_PATH") == expected and "LD_LIBRARY_PATH_ORIG" not in env


@pytest.mark.parametrize("wanted, display, expected", [
    ("wayland", ":0", "xcb"), ("wayland-egl", ":0", "xcb"), ("wayland;xcb", ":0", "xcb"), ("wayland", None, "xcb"),
])
def test_wayland_without_its_plugin_falls_back_to_xcb_with_a_message(bundle, wanted, display, expected):
    env, err = {"QT_QPA_PLATFORM": wanted}, io.StringIO()
    if display:
        env["DISPLAY"] = display
    HOOK["choose_platform"](env, str(bundle), stderr=err)
    assert env["QT_QPA_PLATFORM"] == expected
    assert "no Wayland platform plugin" in err.getvalue() and ("XWayland" in err.getvalue())


@pytest.mark.parametrize("wanted", ["xcb", "offscreen", ""])
def test_other_platforms_are_left_alone(bundle, wanted):
    env, err = ({"QT_QPA_PLATFORM": wanted} if wanted else {}), io.StringIO()
    HOOK["choose_platform"](env, str(bundle), stderr=err)
    assert env.get("QT_QPA_PLATFORM", "") == wanted and not err.getvalue()


def test_wayland_kept_where_the_bundle_has_the_plugin(bundle):
    (bundle / "PySide6" / "Qt" / "plugins" / "platforms" / "libqwayland-generic.so").write_bytes(b"")
    env = {"QT_QPA_PLATFORM": "wayland"}
    HOOK["choose_platform"](env, str(bundle), stderr=io.StringIO())
    assert env["QT_QPA_PLATFORM"] == "wayland"
