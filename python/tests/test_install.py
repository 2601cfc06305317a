"""What a fresh install needs of the package itself (scripts/check_python_install.sh checks the whole
path on a fresh Debian 12 root): `import alignscope` without the optional modules, and the command
line naming itself as the user called it."""

import os
import subprocess
import sys


def _python(code, repo_root):
    env = dict(os.environ, PYTHONPATH=str(repo_root / "python"))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_import_alignscope_works_without_the_optional_modules(repo_root):
    # None in sys.modules makes `import sentencepiece` (h5py) fail as if it were not installed
    r = _python("import sys\nsys.modules['sentencepiece'] = sys.modules['h5py'] = None\nimport alignscope\n"
                "from alignscope.subwords import train_pieces\n"
                "try:\n    train_pieces(['a b'], 8)\nexcept ImportError as e:\n    print(e)\n", repo_root)
    assert r.returncode == 0, r.stderr
    assert "apt-get install python3-sentencepiece" in r.stdout


def test_usage_names_the_command_as_called(repo_root):
    r = _python("import sys\nsys.argv = ['/venv/bin/alignscope-py', '--help']\nfrom alignscope.__main__ import main\n"
                "main()", repo_root)
    assert r.stdout.startswith("usage: alignscope-py "), r.stdout + r.stderr
    env = dict(os.environ, PYTHONPATH=str(repo_root / "python"))
    r = subprocess.run([sys.executable, "-m", "alignscope", "--help"], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.startswith("usage: python3 -m alignscope "), r.stdout + r.stderr
