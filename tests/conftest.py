import sys
from pathlib import Path

# The tests' own helper modules (tracks.py, scenarios.py) import by plain name.
sys.path.insert(0, str(Path(__file__).parent))
