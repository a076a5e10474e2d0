"""Screenshots of the public site for the README: a rating list and a player page, on a phone
(390 px) and a desktop (1280 px). `make screenshots` runs this against a throwaway demo server.

    python docs/screenshots.py BASE_URL [OUT_DIR]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.request import urlopen

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
WIDTHS = {"phone": (390, 844), "desktop": (1280, 800)}


def pages(base: str) -> dict[str, str]:
    """The ICCF list and its top player, found through the API."""
    with urlopen(f"{base}/api/v1/federations/") as response:
        federations = json.load(response)["federations"]
    iccf = next(f for f in federations if f["code"] == "iccf")
    with urlopen(f"{base}/api/v1/federations/iccf/lists/{iccf['latest_period']}/?limit=1") as r:
        top = json.load(r)["results"][0]
    return {
        "list": f"{base}/federations/iccf/lists/{iccf['latest_period']}/",
        "player": f"{base}/federations/iccf/players/{top['id']}/",
    }


def main(base: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for device, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, url in pages(base).items():
                page.goto(url)
                target = out / f"{name}-{device}.png"
                page.screenshot(path=str(target))
                print(target)
            page.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), Path(sys.argv[2] if len(sys.argv) > 2 else "docs"))
