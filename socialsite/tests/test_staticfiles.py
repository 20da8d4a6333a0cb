"""collect(): collectstatic into STATIC_ROOT under hashed names with gzip copies, only
when a source changed."""

import gzip
import json
import os

from django.test import override_settings

from socialsite.staticfiles import MANIFEST, collect


def test_collect_hashes_and_gzips_once_and_again_after_a_change(tmp_path):
    source, root = tmp_path / "static", tmp_path / "root"
    (source / "css").mkdir(parents=True)
    style = source / "css" / "site.css"
    style.write_text("body { color: #222; }\n" * 50)
    with override_settings(STATICFILES_DIRS=[source], STATIC_ROOT=root):
        assert collect() is True
        hashed = json.loads((root / MANIFEST).read_text())["paths"]["css/site.css"]
        assert hashed.startswith("css/site.") and hashed != "css/site.css"
        assert gzip.decompress((root / f"{hashed}.gz").read_bytes()) == style.read_bytes()
        assert collect() is False
        style.write_text("body { color: #111; }\n")
        later = (root / MANIFEST).stat().st_mtime + 1
        os.utime(style, (later, later))
        assert collect() is True
        assert json.loads((root / MANIFEST).read_text())["paths"]["css/site.css"] != hashed
