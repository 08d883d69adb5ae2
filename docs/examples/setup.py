"""Build flat_mc.pyx against the installed ludens: python setup.py build_ext --inplace"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

import ludens

site = os.path.dirname(os.path.dirname(ludens.__file__))   # the directory that holds ludens/ and its .pxd files
setup(ext_modules=cythonize([Extension("flat_mc", ["flat_mc.pyx"])], include_path=[site]))
