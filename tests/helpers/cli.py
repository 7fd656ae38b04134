"""Run the command line in process and capture what it prints."""

from dpdesk.cli import main


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err
