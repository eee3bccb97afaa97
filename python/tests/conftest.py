"""The tests run against the glance package as installed (tests/python-venv.sh
installs ./python into a fresh virtual environment and runs them there, so
nothing here puts the source tree on sys.path), with the build's
libglance.so (GLANCE_LIBRARY, set by ctest), its glance command (GLANCE_BIN)
and the fixtures beside them."""
import os

FIXTURES = os.environ.get("GLANCE_FIXTURES", os.path.join(os.path.dirname(__file__), "..", "..", "fixtures"))
GLANCE_BIN = os.environ.get("GLANCE_BIN", "glance")
