"""The tests run against the build's libglance.so (GLANCE_LIBRARY, set by
ctest) and its glance command (GLANCE_BIN); the fixtures beside them."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

FIXTURES = os.environ.get("GLANCE_FIXTURES", os.path.join(os.path.dirname(__file__), "..", "..", "fixtures"))
GLANCE_BIN = os.environ.get("GLANCE_BIN", "glance")
