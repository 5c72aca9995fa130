"""Scenario files in testdata/: one behaviour per file, readable as a story."""

import glob
import os

import pytest
from scenario import run_file

FILES = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "testdata", "*.txt")))


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(f) for f in FILES])
def test_scenario(path):
    run_file(path)
