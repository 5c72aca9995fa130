"""Build hook for the optional C accelerators; everything else is in pyproject.toml."""
from setuptools import Extension, setup

_CRC = ["odradek/wire/crc32c_impl.h"]

setup(ext_modules=[
    Extension("odradek.wire._crc32c", ["odradek/wire/_crc32c.c"], depends=_CRC,
              include_dirs=["odradek/wire"], extra_compile_args=["-O2"], optional=True),
    Extension("odradek.log._batchio", ["odradek/log/_batchio.c"], depends=_CRC,
              include_dirs=["odradek/wire"], extra_compile_args=["-O2"], optional=True),
])
