"""The documentation the package ships: its examples run, and its type
stubs name what the compiled module has."""

from __future__ import annotations

import ast
import doctest
import sys
from pathlib import Path

import c4
from c4 import _c4


def test_the_module_examples_give_what_they_say() -> None:
    failed, attempted = doctest.testmod(c4, verbose=False)
    assert attempted >= 4 and failed == 0


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def test_the_stubs_name_every_class_and_method() -> None:
    stubs = ast.parse((Path(c4.__file__).parent / "_c4.pyi").read_text())
    classes = {node.name: node for node in stubs.body if isinstance(node, ast.ClassDef)}
    functions = {node.name for node in stubs.body if isinstance(node, ast.FunctionDef)}
    assert set(classes) | functions == public(dir(_c4)) - {"PositionLike"}
    for name in functions:
        assert getattr(_c4, name).__doc__, name
    for name, node in classes.items():
        stubbed = {
            item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        assert public(stubbed) == public(dir(getattr(_c4, name))), name
        # And every one has a docstring at run time, for help() and completion.
        for method in public(stubbed):
            assert getattr(getattr(_c4, name), method).__doc__, f"{name}.{method}"
    assert (Path(c4.__file__).parent / "py.typed").exists()
    assert "MemoryError" in c4.Solver.__doc__
    if sys.version_info >= (3, 10):
        assert c4.Solver.__text_signature__ == "(width=7, height=6, *, table='64M', book='builtin', threads=1)"
    else:
        # The stable ABI (abi3) gives a class no signature before 3.10, so
        # PyO3 sets none there; the docstring still lists the arguments.
        assert c4.Solver.__text_signature__ is None
        assert "table:" in c4.Solver.__doc__
