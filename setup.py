"""Build hook for the optional C accelerator; everything else is in pyproject.toml."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("odradek.log._batchio", ["odradek/log/_batchio.c"],
                             extra_compile_args=["-O2"], optional=True)])
